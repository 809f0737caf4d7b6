"""The bot ladder (issue 50): bots that opt in are paired with each other continuously."""
