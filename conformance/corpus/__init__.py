"""The suite and its files, what the kit reads before it runs anything: scenario files, the clause
catalogue, areas and editions, and the YAML reading they share with its parse cache. Nothing here
runs an adapter or writes a report."""
