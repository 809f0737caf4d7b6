"""The page and what it reads besides the games: its routes, the rules, the lesson."""
