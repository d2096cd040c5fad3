"""Reports and pages, everything the kit writes or prints, and the file-system edge they share
(atomic writes, removal of the kit's folders, a console that survives a closed pipe)."""
