// PushServer: filled in by its issue.
