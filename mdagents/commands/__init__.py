"""One module per CLI subcommand, each with `configure(parser)` and `execute(args) -> exit code`."""
