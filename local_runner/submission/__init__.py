"""A bot's folder as the competitions take it: made by ``pokerbots new``, its metadata, the
vendored SDK, archives read safely, and the package written for upload."""
