"""``python -m hanamikoji.training``: a generation of the learned evaluation's training
(:func:`hanamikoji.training.driver.main`)."""

from hanamikoji.training.driver import main

if __name__ == "__main__":
    main()
