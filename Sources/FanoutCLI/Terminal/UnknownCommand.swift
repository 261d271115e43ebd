import ArgumentParser
import FanoutCore

/// A misspelled subcommand (`fanout buidl`), caught before ArgumentParser, which would only say "Unexpected
/// argument 'buidl'": the message names the nearest command and lists them all.
enum UnknownCommand {
    /// The message for the first argument that stands where a subcommand must be and names none, or nil.
    static func message(_ arguments: [String], root: any ParsableCommand.Type = FanoutCommand.self) -> String? {
        var command = root
        var path = [name(of: root)]
        for argument in arguments {
            // Options, and anything after the command path, are the parser's to judge.
            guard !argument.hasPrefix("-") else { return nil }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: { name(of: $0) == argument }) {
                command = next
                path.append(argument)
                continue
            }
            // ArgumentParser's own `help` subcommand, at the top only.
            if argument == "help", path.count == 1 { return nil }
            let names = subcommands.map(name(of:))
            return "unknown command \"\(argument)\"\(Suggestion.didYouMean(argument, among: names)); "
                + "\(path.joined(separator: " ")) commands: \(names.joined(separator: ", "))"
        }
        return nil
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }
}
