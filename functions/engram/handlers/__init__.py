"""Lambda entry points: thin, decorated, one service call each."""
