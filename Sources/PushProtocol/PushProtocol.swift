// PushProtocol: filled in by its issue.
