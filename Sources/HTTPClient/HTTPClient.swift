// HTTPClient: filled in by its issue.
