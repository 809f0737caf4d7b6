"""Your turn, wherever you are: e-mails to accounts about their correspondence games
(a verified address, an opt-in, batches, unsubscribe links); the page's own notices
(title, favicon, sound, notifications) are ``static/js/notices.js``."""
