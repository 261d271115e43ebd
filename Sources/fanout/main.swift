import FanoutCLI
import FanoutServeHTTP

FanoutCommand.main(server: HummingbirdSiteServer())
