// PushClient: filled in by its issue.
