"""Pure logic of prompt profiles: every function here is a function of its arguments only."""
