import FanoutCLI

FanoutCommand.main()
