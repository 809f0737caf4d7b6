"""Personal API tokens (issue 50): an account creates, lists and revokes its tokens from
its page's session; the bot API (``bots/``) reads them through ``http/bearer.py``."""
