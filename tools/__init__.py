"""Developer tools that are not part of the bot (see docs/)."""
