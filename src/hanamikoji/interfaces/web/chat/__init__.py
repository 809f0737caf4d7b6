"""Chat at the table (issue 49): a player room and a spectator room per game between
people, preset phrases for everyone, free text for accounts, reports and moderation."""
