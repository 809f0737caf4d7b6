"""Friends and challenges: follow and block players, who is online, challenges to a
named player or through a link (issue 49)."""
