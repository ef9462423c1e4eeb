/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import dev.spindle.cluster.internal.OwnFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The command line of a transport's {@code WorkerMain}: {@code --option value} pairs from a
 * known set, {@code --help}, and the conventions every worker launcher keeps. Anything wrong is an
 * {@link IllegalArgumentException} with a one-line reason, which the launcher prints with
 * {@link #usageError} and exit status {@value #USAGE}. A secret (or password) comes from an
 * environment variable or a file, never from the command line, where other users of the machine
 * could read it ({@link #secret}).
 *
 * <p>Values are checked when they are read, so a launcher reads them in the order its errors
 * should be reported. A repeated option keeps its last value.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class WorkerCommandLine {

    /** Exit status: done, or {@code --help}. */
    public static final int OK = 0;
    /** Exit status: the worker could not take part, or stopped. */
    public static final int FAILED = 1;
    /** Exit status: a bad command line. */
    public static final int USAGE = 2;

    /** The options of {@link #memory()}, which every {@code WorkerMain} accepts. */
    private static final Set<String> MEMORY_OPTIONS = Set.of("--memory-limit", "--spill-dir");

    /** The usage lines of the options of {@link #memory()}. */
    public static final String MEMORY_USAGE = String.join(System.lineSeparator(),
            "  --memory-limit <bytes>          spill values to disk above 60 % of this in memory, start no task",
            "                                  above 80 % (suffix k, m or g: KiB, MiB, GiB; default: no limit)",
            "  --spill-dir <path>              where the worker's private spill directory is made (default: java.io.tmpdir)");

    private final Map<String, String> values;
    private final boolean help;

    private WorkerCommandLine(Map<String, String> values, boolean help) {
        this.values = values;
        this.help = help;
    }

    /**
     * A launcher's own options and those of {@link #memory()}, which every launcher has.
     *
     * @param own the launcher's own options, each with its leading {@code --}
     * @return a new set of {@code own} plus {@code --memory-limit} and {@code --spill-dir}
     */
    public static Set<String> withMemoryOptions(String... own) {
        Set<String> all = new java.util.HashSet<>(Set.of(own));
        all.addAll(MEMORY_OPTIONS);
        return Set.copyOf(all);
    }

    /**
     * Splits {@code args} into option-value pairs.
     *
     * @param options the options the launcher knows, each with its leading {@code --}
     * @param args the command line, as given to {@code main}
     * @return the parsed options
     * @throws IllegalArgumentException for a stray argument, an option without a value or an
     *         unknown option
     */
    public static WorkerCommandLine parse(String[] args, Set<String> options) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--help") || option.equals("-h")) {
                return new WorkerCommandLine(Map.of(), true);
            }
            if (!option.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + option + "'");
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException("missing value after " + option);
            }
            if (!options.contains(option)) {
                throw new IllegalArgumentException("unknown option " + option);
            }
            values.put(option, args[++i]);
        }
        return new WorkerCommandLine(values, false);
    }

    /**
     * Whether {@code --help} (or {@code -h}) was asked for; then no option has a value.
     *
     * @return {@code true} if help was asked for
     */
    public boolean help() {
        return help;
    }

    /**
     * The value of {@code option}, or {@code otherwise} if it was not given.
     *
     * @param option the option, with its leading {@code --}
     * @param otherwise the default
     * @return the value as given, or {@code otherwise}
     */
    public String text(String option, String otherwise) {
        return values.getOrDefault(option, otherwise);
    }

    /**
     * The worker id given with {@code --id}, or -1 if none was (which {@link #require} reports).
     * An id no cluster can have is refused here, at once, rather than by the coordinator once the
     * worker has joined: the Pekko transport's coordinator tells a member it refuses nothing, so a
     * worker with such an id idled in the cluster for good.
     *
     * @return the id, from 0 to {@value ClusterCoordinator#MAX_WORKERS} minus one, or -1
     * @throws IllegalArgumentException if it is not a whole number, negative, or not below
     *         {@link ClusterCoordinator#MAX_WORKERS}
     */
    public int workerId() {
        int id = number("--id", -1, 0);
        if (id >= ClusterCoordinator.MAX_WORKERS) {
            throw new IllegalArgumentException("--id must be below " + ClusterCoordinator.MAX_WORKERS
                    + " (the most workers a cluster may have), got " + id);
        }
        return id;
    }

    /**
     * The whole number given for {@code option}, or {@code otherwise} if it was not given.
     *
     * @param option the option, with its leading {@code --}
     * @param otherwise the default, returned without a check
     * @param min the smallest value accepted
     * @return the number given, or {@code otherwise}
     * @throws IllegalArgumentException if it is not a whole number or is below {@code min}
     */
    public int number(String option, int otherwise, int min) {
        return number(option, otherwise, min, Integer.MAX_VALUE);
    }

    /**
     * The whole number given for {@code option}, from {@code min} to {@code max}, or
     * {@code otherwise} if it was not given.
     *
     * @param option the option, with its leading {@code --}
     * @param otherwise the default, returned without a check
     * @param min the smallest value accepted
     * @param max the largest value accepted
     * @return the number given, or {@code otherwise}
     * @throws IllegalArgumentException if it is not a whole number or is out of range
     */
    public int number(String option, int otherwise, int min, int max) {
        String value = values.get(option);
        if (value == null) {
            return otherwise;
        }
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a whole number, got '" + value + "'");
        }
        if (n < min) {
            throw new IllegalArgumentException(option + " must be at least " + min + ", got " + n);
        }
        if (n > max) {
            throw new IllegalArgumentException(option + " must be at most " + max + ", got " + n);
        }
        return n;
    }

    /**
     * The most threads a worker's pool may have, as its builder takes them
     * ({@code PoolBuilder.workers}).
     */
    public static final int MAX_THREADS = 0x7fff;

    /**
     * The worker's threads, {@code --threads}: 1 to {@value #MAX_THREADS}, the available
     * processors if not given. Checked here, with the other options: the pool's own check came
     * only once the launcher was starting its member (the Pekko worker's actor system already
     * listening), and the Hazelcast launcher reported it as a worker that could not start (exit
     * status 1), not as a bad command line.
     *
     * @return the threads given, or {@link Runtime#availableProcessors()}
     * @throws IllegalArgumentException if it is not a whole number from 1 to {@value #MAX_THREADS}
     */
    public int threads() {
        return number("--threads", Runtime.getRuntime().availableProcessors(), 1, MAX_THREADS);
    }

    /**
     * This member's port, {@code --port}: {@code min} (1, or 0 where 0 picks a free port) to 65535,
     * {@code otherwise} if not given; the error names the option, as the settings builder's does not.
     *
     * @param otherwise the transport's default port
     * @param min the smallest port accepted, 0 or 1
     * @return the port given, or {@code otherwise}
     * @throws IllegalArgumentException if it is not a whole number in range
     */
    public int port(int otherwise, int min) {
        return number("--port", otherwise, min, 65535);
    }

    /**
     * Why this machine cannot listen on {@code bind:port}, naming the option at fault, or
     * {@code null} if it can: checked before the member starts, so that a launcher reports an
     * address that does not resolve or a port that is taken as a bad command line (one line,
     * status {@value #USAGE}) rather than as a transport's failure to bind once it has started
     * (the Pekko worker printed Pekko's stack traces and exited with status 1). The port may still
     * be taken between this check and the member's bind.
     *
     * @param bind the address to listen on, as {@code --bind} gave it
     * @param port the port, 0 for any free one
     * @return the problem, in one line, or {@code null}
     */
    public static String listenProblem(String bind, int port) {
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            return "--bind " + bind + ": no such address (" + e.getMessage() + ")";
        } catch (SecurityException e) {
            return "--bind " + bind + ": cannot look it up (" + e.getMessage() + ")";
        }
        try (ServerSocket s = new ServerSocket(port, 1, address)) {
            return null;
        } catch (IOException | SecurityException e) {
            return cannotListen(bind, port, e);
        }
    }

    /**
     * The one line for a failure to listen on {@code bind:port}, naming the option to change:
     * {@link #listenProblem}'s, and a launcher's (or a command's) whose own bind failed
     * ({@link #bindFailure}), the port taken after the check or never checked. A usage error
     * (status {@value #USAGE}): the user chooses another port or address.
     *
     * @param bind the address, as {@code --bind} gave it
     * @param port the port, 0 for any free one
     * @param failure why it could not listen
     * @return the problem, in one line
     */
    public static String cannotListen(String bind, int port, Exception failure) {
        return "cannot listen on " + bind + ":" + port + " (" + failure.getMessage() + "): "
                + (port == 0 || !ofThisMachine(bind) ? "is " + bind + " an address of this machine? choose another with --bind"
                        : "is another process using the port? choose another with --port");
    }

    /** Whether {@code bind} is an address of this machine; {@code true} where that cannot be told. */
    private static boolean ofThisMachine(String bind) {
        try {
            InetAddress address = InetAddress.getByName(bind);
            return address.isAnyLocalAddress() || address.isLoopbackAddress()
                    || NetworkInterface.getByInetAddress(address) != null;
        } catch (IOException | SecurityException cannotTell) {
            return true;
        }
    }

    /**
     * The {@link BindException} that made {@code failure} (a member's or a server's start) fail,
     * {@code null} if none: a failure to listen, which {@link #cannotListen} reports as a usage
     * error, not as a bug. Its causes and the exceptions each suppressed are searched (a
     * transport wraps the bind's failure in its own exceptions).
     *
     * @param failure what the start threw
     * @return the bind's failure, or {@code null}
     */
    public static BindException bindFailure(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> todo = new ArrayList<>(List.of(failure));
        while (!todo.isEmpty() && seen.size() < 64) {           // a cause chain may loop back
            Throwable t = todo.remove(todo.size() - 1);
            if (t == null || !seen.add(t)) {
                continue;
            }
            if (t instanceof BindException bind) {
                return bind;
            }
            todo.add(t.getCause());
            todo.addAll(List.of(t.getSuppressed()));
        }
        return null;
    }

    /**
     * The worker's memory limit ({@code --memory-limit}: bytes, or with a suffix {@code k},
     * {@code m} or {@code g} for KiB, MiB or GiB) and spill parent ({@code --spill-dir}, which must
     * be an existing directory); {@link WorkerMemory#NONE} when neither is given.
     *
     * @return the memory settings
     * @throws IllegalArgumentException if the limit is not a size, or the directory is empty or does not exist
     *         or anyone may write in it or in a directory above it that is not sticky
     */
    public WorkerMemory memory() {
        String limit = values.get("--memory-limit");
        String dir = values.get("--spill-dir");
        long bytes = limit == null ? 0 : size("--memory-limit", limit);
        Path parent = null;
        if (dir != null) {
            if (dir.isEmpty()) {
                // Path.of("") is the current directory, which exists: the worker spilled wherever
                // it was started (an unset variable in --spill-dir "$DIR"), without a word
                throw new IllegalArgumentException("--spill-dir needs a directory, got ''");
            }
            parent = Path.of(dir);
            if (!Files.isDirectory(parent)) {
                throw new IllegalArgumentException("--spill-dir " + dir + ": no such directory");
            }
            // the worker's spill directory is its own (rwx------), but whoever may write in its
            // parent can move it aside for one of theirs, which a spill racing the swap writes
            // into: WorkerMemory's rule, refused here in the option's name
            String refused = WorkerMemory.refusalAt(parent);
            if (refused != null) {
                throw new IllegalArgumentException("--spill-dir " + dir + ": " + refused);
            }
        }
        return new WorkerMemory(bytes, parent);
    }

    /** A size in bytes with an optional binary suffix, at least 1. */
    private static long size(String option, String value) {
        String v = value.strip().toLowerCase(java.util.Locale.ROOT);
        int shift = v.endsWith("k") ? 10 : v.endsWith("m") ? 20 : v.endsWith("g") ? 30 : 0;
        String digits = shift == 0 ? v : v.substring(0, v.length() - 1);
        long n;
        try {
            n = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(option + " needs a size in bytes of at least 1, such as 512m or "
                    + "2g, got '" + value + "'");
        }
        return n << shift;
    }

    /**
     * The comma-separated values of {@code option}, each stripped; empty if it was not given. An
     * empty entry (a leading, trailing or doubled comma, or a value of white space alone) is
     * refused, not dropped: it is as likely a variable that was not set ({@code --seed "$A,$B"})
     * as a comma too many, and dropped, the worker joined through fewer seeds, or allowed fewer
     * packages, than the command line seemed to name.
     *
     * @param option the option, with its leading {@code --}
     * @return a new list of the values, in the order given, none of them empty
     * @throws IllegalArgumentException naming the option and its value, if an entry is empty
     */
    public List<String> list(String option) {
        String value = values.get(option);
        List<String> items = new ArrayList<>();
        if (value != null) {
            for (String item : value.split(",", -1)) {        // -1: keep the trailing empty entries
                String stripped = item.strip();
                if (stripped.isEmpty()) {
                    throw new IllegalArgumentException(option + " '" + value + "': an empty entry (a comma too many,"
                            + " or a variable that was not set?)");
                }
                items.add(stripped);
            }
        }
        return items;
    }

    /**
     * Checks that each of {@code options} was given.
     *
     * @param options the options that must have been given, each with its leading {@code --}
     * @throws IllegalArgumentException naming all of them ("--a, --b and --c are required") if
     *         one is missing
     */
    public void require(String... options) {
        for (String option : options) {
            if (!values.containsKey(option)) {
                String all = options.length == 1 ? options[0]
                        : String.join(", ", List.of(options).subList(0, options.length - 1)) + " and "
                        + options[options.length - 1];
                throw new IllegalArgumentException(all + (options.length == 1 ? " is" : " are") + " required");
            }
        }
    }

    /**
     * The longest secret file read, in bytes: a shared secret or a store password is tens of
     * bytes, and a file of megabytes named by mistake (a log, a device) is refused without being
     * read into memory.
     */
    public static final int MAX_SECRET_FILE_BYTES = 64 * 1024;

    /** The permissions of a secret file that let others than its owner read or change the secret. */
    private static final Set<PosixFilePermission> NOT_THE_OWNERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    /**
     * The secret: the stripped content of the file given with {@code fileOption}, else the value
     * of the environment variable {@code envVariable}.
     *
     * <p>The file is refused, as ssh refuses a private key file, if anyone but its owner may read
     * or write it, if its owner is another user than this process's and root, or if a directory
     * above it is writable by anyone and not sticky, or belongs to another user than this
     * process's and root (on a file system with POSIX permissions;
     * elsewhere, on Windows say, its access list is left to the operator): others on the machine
     * would have the secret, or could change it. A named pipe is refused by its owner and its
     * directory as a file is (whoever writes it chooses the secret); a pipe that no directory holds
     * ({@code <(command)}) by its owner alone. The file read is the one checked, links resolved
     * when it was checked. It is refused too if it holds more than
     * {@value #MAX_SECRET_FILE_BYTES} bytes, read no further than that, or nothing but white space.
     *
     * @param env the environment ({@link System#getenv()} outside tests)
     * @param what the secret's name in the message, e.g. {@code "store password"}
     * @param fileOption the option naming the secret's file, with its leading {@code --}
     * @param envVariable the environment variable that holds the secret when no file is given
     * @return the secret, not empty when read from the file
     * @throws IllegalArgumentException if the file is missing, unreadable, open to others than its
     *     owner, too large or empty, or neither the file nor the variable is set
     */
    public String secret(String fileOption, Map<String, String> env, String envVariable, String what) {
        String file = values.get(fileOption);
        if (file != null) {
            return secretFile(fileOption, file, envVariable, what);
        }
        String secret = env.get(envVariable);
        if (secret == null) {
            throw new IllegalArgumentException("no " + what + ": set " + envVariable + " or pass " + fileOption);
        }
        return secret;
    }

    private static String secretFile(String fileOption, String file, String envVariable, String what) {
        String named = fileOption + " " + file;
        Path given = nonEmptyPath(fileOption, file);     // "" is the current directory
        try {
            Path path = given;
            BasicFileAttributes attributes;
            try {
                PosixFileAttributes posix = Files.readAttributes(path, PosixFileAttributes.class);
                Set<PosixFilePermission> others = EnumSet.noneOf(PosixFilePermission.class);
                others.addAll(posix.permissions());
                others.retainAll(NOT_THE_OWNERS);
                // a pipe (--secret-file <(command)) or a device is not kept on disk: only a file is
                if (posix.isRegularFile() && !others.isEmpty()) {
                    throw new IllegalArgumentException(named + ": others than its owner may read or write it ("
                            + PosixFilePermissions.toString(posix.permissions()) + "), and have the " + what
                            + ": make it its owner's alone (chmod 600 " + file + ") or set " + envVariable
                            + " instead");
                }
                // but a named pipe is another user's to write if it is theirs, or lies where anyone
                // may put one: read whoever it belonged to, a pipe that a local user made at the
                // path beforehand gave the worker the secret of their choosing
                if (posix.isRegularFile() || namedPipe(path)) {
                    path = checkOwner(path, posix, named, envVariable, what);
                }
                attributes = posix;
            } catch (UnsupportedOperationException notPosix) {
                attributes = Files.readAttributes(path, BasicFileAttributes.class);
            }
            if (attributes.isRegularFile() && attributes.size() > MAX_SECRET_FILE_BYTES) {
                throw tooLarge(named, what);
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(path)) {
                bytes = in.readNBytes(MAX_SECRET_FILE_BYTES + 1);   // a file that grew, or a pipe: no further
            }
            if (bytes.length > MAX_SECRET_FILE_BYTES) {
                throw tooLarge(named, what);
            }
            String secret = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString().strip();
            if (secret.isEmpty()) {
                throw new IllegalArgumentException(named + ": the file is empty; it must hold the " + what);
            }
            return secret;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(named + ": no such file");
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(named + ": cannot read it (not UTF-8 text)");
        } catch (IOException | InvalidPathException | SecurityException e) {
            throw new IllegalArgumentException(named + ": cannot read it (" + e + ")");
        }
    }

    /**
     * Refuses a secret file that its owner, if another user than this process's and root, may read
     * or change at will (root reads any file, so a worker run as root read one that a local user
     * had made beforehand, mode 600 and theirs), and one under a directory anyone may write in
     * (not sticky) or of another user's than this process's and root, where another user replaces
     * it with a secret of their own before it is read ({@link OwnFiles}). The same for a named pipe, whose writer has the secret; one that no
     * directory holds (the shell's {@code <(command)}, {@code /dev/fd/63}: a pipe of this
     * process's own) is checked by its owner alone.
     *
     * @return the path to read: the real path checked, links resolved (a link on the way given,
     *     pointed elsewhere between the check and the read, made the check mean nothing), or
     *     {@code path} for a pipe that no directory holds
     */
    private static Path checkOwner(Path path, PosixFileAttributes posix, String named, String envVariable, String what)
            throws IOException {
        Path real;
        try {
            real = path.toRealPath();
        } catch (NoSuchFileException noPathOfItsOwn) {
            if (posix.isRegularFile()) {
                throw noPathOfItsOwn;         // deleted since its attributes were read
            }
            real = null;                      // /dev/fd/63 names "pipe:[...]", which no directory holds
        }
        UserPrincipal owner = posix.owner();
        if (OwnFiles.ownedByAnother(real != null ? real : path, owner, true)) {
            throw new IllegalArgumentException(named + ": the file belongs to " + owner.getName() + ", who has the "
                    + what + ": make it yours (or root's), or set " + envVariable + " instead");
        }
        if (real == null) {
            return path;
        }
        Path open = OwnFiles.openDirectory(real.getParent());
        if (open != null) {
            throw new IllegalArgumentException(named + ": anyone may write in " + open + " (not sticky), and put"
                    + " a " + what + " of their own in its place: keep it elsewhere, or set " + envVariable
                    + " instead");
        }
        Path theirs = OwnFiles.othersDirectory(real.getParent());
        if (theirs != null) {
            throw new IllegalArgumentException(named + ": " + theirs + " belongs to " + Files.getOwner(theirs).getName()
                    + ", who may put a " + what + " of their own in its place: keep it elsewhere, or set "
                    + envVariable + " instead");
        }
        return real;
    }

    /** Whether {@code path} is a named pipe (a FIFO), links followed; {@code false} where the file system cannot tell. */
    private static boolean namedPipe(Path path) throws IOException {
        try {
            return ((Integer) Files.getAttribute(path, "unix:mode") & 0170000) == 0010000;
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            return false;
        }
    }

    private static IllegalArgumentException tooLarge(String named, String what) {
        return new IllegalArgumentException(named + ": more than " + MAX_SECRET_FILE_BYTES + " bytes, not a " + what
                + " (is it the right file?)");
    }

    /**
     * Runs {@code set}, a settings builder's call with the value of {@code option}, and reports
     * its refusal under the option's name: a builder names the setting as its API does
     * ({@code bindAddress must not be blank}, {@code seed node must be host:port},
     * {@code maxMessageBytes must be in...}), which the command line does not spell.
     *
     * @param option the option whose value {@code set} passes, with its leading {@code --}
     * @param set the builder call
     * @throws IllegalArgumentException {@code "<option>: "} and the builder's message, if it refuses
     */
    public static void asOption(String option, Runnable set) {
        try {
            set.run();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            if (message != null && message.startsWith(option + " ")) {
                throw e;                      // named already, as list() names an empty entry
            }
            throw new IllegalArgumentException(option + ": " + message, e);
        }
    }

    /**
     * Runs {@code make}, a settings builder's call that checks several values at once (a
     * builder's constructor), and reports its refusal of the one setting whose message starts
     * with {@code setting} (as the builder names it) under {@code option}; a refusal of another
     * setting is left as it is, not put under an option it is not about.
     *
     * @param option the option that gives the setting, with its leading {@code --}
     * @param setting how the builder's messages about it start, such as {@code "clusterName "}
     * @param make the builder call
     * @param <T> what it makes
     * @return what it made
     * @throws IllegalArgumentException {@code "<option>: "} and the builder's message, if it
     *     refuses the setting; the builder's exception as it is, if it refuses another
     */
    public static <T> T asOption(String option, String setting, Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith(setting)) {
                throw e;
            }
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    /**
     * The regular file that {@code option} names (links followed), or {@code null} if it was not
     * given (which {@link #require} reports): checked here so that the error names the option.
     *
     * @param option the option, with its leading {@code --}
     * @return the path as given, or {@code null}
     * @throws IllegalArgumentException if the value is empty (which names the current
     *     directory), or names nothing or something other than a file, such as a directory
     */
    public Path file(String option) {
        String value = values.get(option);
        if (value == null) {
            return null;
        }
        Path path = nonEmptyPath(option, value);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException(option + " " + value + (Files.exists(path) ? ": not a file" : ": no such file"));
        }
        return path;
    }

    /**
     * {@code value} as a path; refused if empty, as {@code Path.of("")} is the current directory,
     * which exists: an unset variable in {@code --option "$FILE"} named wherever the worker was
     * started.
     */
    private static Path nonEmptyPath(String option, String value) {
        if (value.isEmpty()) {
            throw new IllegalArgumentException(option + " needs a file, got ''");
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(option + " " + value + ": not a path (" + e.getMessage() + ")");
        }
    }

    /**
     * Prints {@code "WorkerMain: "} and the problem on one line, then the usage, and returns
     * {@link #USAGE}.
     *
     * @param err where to print, usually {@link System#err}
     * @param problem what was wrong with the command line
     * @param usage the launcher's usage text
     * @return {@value #USAGE}, the exit status for a usage error
     */
    public static int usageError(PrintStream err, String problem, String usage) {
        err.println("WorkerMain: " + problem);
        err.println(usage);
        return USAGE;
    }

    /**
     * With {@code -Dspindle.exitWithParent=true}, exits this JVM (status {@link #OK}) when the
     * process that started it does: a worker started by a test or a supervisor must not outlive
     * it.
     */
    public static void exitWithParentIfAsked() {
        if (Boolean.getBoolean("spindle.exitWithParent")) {
            ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> System.exit(OK)));
        }
    }
}
