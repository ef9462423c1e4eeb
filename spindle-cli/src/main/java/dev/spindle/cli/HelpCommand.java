/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code spindle help [COMMAND [SUBCOMMAND]]}: the help of the command that the names lead to,
 * as {@code spindle COMMAND SUBCOMMAND --help} prints it. Picocli's own help command reads only
 * its first name: {@code help bench actors} printed the help of {@code bench}, and so did
 * {@code help bench nosuch}, with status 0. Here each name must be a subcommand of the one
 * before, or it is a usage error.
 */
@Command(name = "help", helpCommand = true,
        description = "Display help information about the specified command.")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Runnable {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show usage help for the help command and exit.")
    boolean helpRequested;

    @Parameters(paramLabel = "COMMAND", arity = "0..*",
            description = "The COMMAND (and its subcommand, as in 'help bench actors') to display the usage help message for.")
    List<String> commands = new ArrayList<>();

    private CommandLine self;
    private CommandLine.Help.ColorScheme colorScheme;
    private PrintWriter out;

    @Override
    public void init(CommandLine helpCommandLine, CommandLine.Help.ColorScheme colorScheme, PrintWriter out,
            PrintWriter err) {
        this.self = helpCommandLine;
        this.colorScheme = colorScheme;
        this.out = out;
    }

    @Override
    public void run() {
        CommandLine target = self.getParent();
        for (String name : commands) {
            CommandLine sub = target.getSubcommands().get(name);
            if (sub == null) {
                throw new CommandLine.ParameterException(target, "Unknown subcommand '" + name + "'.");
            }
            target = sub;
        }
        target.usage(out, colorScheme);
        out.flush();
    }
}
