/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Creates a development certificate authority and member key stores with the JDK's
 * {@code keytool}: the one definition of the recipe, used by {@code ./spindle certs} (which runs
 * this file as a single-file program, so it must need nothing but the JDK) and by the tests.
 *
 * <p>In a directory it creates:
 * <ul>
 *   <li>{@value #CA_STORE}: the CA's key pair, self-signed with {@code BasicConstraints: CA}
 *       ({@code -ext bc:c}). Whoever holds it can mint members: keep it off the members' machines.
 *   <li>{@value #TRUST_STORE}: the CA's certificate only; every member trusts exactly this.
 *   <li>{@code <member>.p12}: a member's EC P-256 key with a certificate signed by the CA, with
 *       extended key usage {@code serverAuth,clientAuth} (a member is both ends of TLS) and
 *       subject alternative names {@code ip:127.0.0.1, dns:localhost}; the CA certificate is
 *       imported first, so the store holds the whole chain.
 * </ul>
 * All stores are PKCS12 under one password, which reaches {@code keytool} through its environment
 * ({@code -storepass:env}), never its command line. Each store is built under a temporary name
 * ({@code <store>.partial}) and renamed into place once every {@code keytool} step has run, the
 * CA's store after the trust store: a store under its own name is complete, so a step that
 * failed, or a run killed between steps, leaves nothing that a retry would take as done (a CA
 * without its trust store) or refuse as existing (a member's key without its signed
 * certificate). Where the file system has POSIX permissions,
 * the directory, if created here, and the key stores holding a private key are the owner's only:
 * another local user who could read a store could guess its password offline. The directory may
 * exist already and be open to others: so a store is built in a new directory of its own that
 * only the owner can enter ({@code .partial-*}, removed once the store is in place; a run that is
 * killed leaves it), as {@code keytool} makes its file as the umask allows (readable by all,
 * usually) and it is narrowed only afterwards; another user who opened it in between would keep
 * reading it. The password file {@link #main} generates is created the owner's, for the same
 * reason.
 */
public final class DevCertificates {

    /** The CA's key store. */
    public static final String CA_STORE = "ca.p12";
    /** The trust store holding the CA certificate. */
    public static final String TRUST_STORE = "truststore.p12";
    /** Where {@link #main} keeps a password it generated. */
    public static final String PASSWORD_FILE = "store-password";

    private static final String PASSWORD_ENV = "SPINDLE_KEYTOOL_PASSWORD";
    private static final int VALIDITY_DAYS = 365;
    private static final String USAGE = "usage: spindle certs DIR [member...]  (store password from "
            + "SPINDLE_STORE_PASSWORD, else DIR/" + PASSWORD_FILE + ", else generated into it)";

    /**
     * Tests only: run after each step that leaves a new file holding a secret in the directory (each
     * {@code keytool} run, the creation of the password file), so that a test can look at the
     * directory as another local user would at that moment.
     */
    static volatile Runnable afterEachStep;

    private final Path dir;
    private final String password;

    /**
     * Works in {@code dir} (created if missing) with {@code password} for every store.
     *
     * @param dir the directory of the stores; nothing is written until a store is created
     * @param password the password of every store and key, at least 6 characters; it reaches
     *     {@code keytool} only through its environment
     * @throws IllegalArgumentException if the password is shorter than 6 characters (keytool's minimum)
     * @throws NullPointerException if an argument is null
     */
    public DevCertificates(Path dir, String password) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.password = Objects.requireNonNull(password, "password");
        if (password.length() < 6) {
            throw new IllegalArgumentException("the store password must have at least 6 characters");
        }
    }

    /**
     * The key store of {@code member} in this directory.
     *
     * @param member the member's name: letters, digits, '.', '_' and '-'
     * @return the path {@code <dir>/<member>.p12}, whether or not the store exists
     * @throws IllegalArgumentException if the name is not usable
     */
    public Path memberStore(String member) {
        return dir.resolve(checkName(member) + ".p12");
    }

    /**
     * The trust store in this directory.
     *
     * @return the path {@code <dir>/}{@value #TRUST_STORE}, whether or not the store exists
     */
    public Path trustStore() {
        return dir.resolve(TRUST_STORE);
    }

    /**
     * Creates the CA and the trust store unless the CA exists already; returns the trust store.
     *
     * @return the trust store's path
     * @throws IOException if the directory cannot be created, or {@code keytool} fails, does not
     *     finish within 60 s or is interrupted
     */
    public Path createCa() throws IOException {
        createDirectory(dir);
        if (Files.exists(dir.resolve(CA_STORE))) {
            return trustStore();               // renamed into place last: the rest is there
        }
        Path pem = dir.resolve("ca.pem");
        Path work = workDirectory();
        String ca = partial(work, CA_STORE);
        String trust = partial(work, TRUST_STORE);
        try {
            keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
                    "-dname", "CN=Spindle development CA", "-ext", "bc:c", "-validity", days(),
                    "-storetype", "PKCS12", "-keystore", ca, "-storepass:env", PASSWORD_ENV,
                    "-keypass:env", PASSWORD_ENV);
            ownerOnly(dir.resolve(ca));
            keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca, "-storepass:env", PASSWORD_ENV,
                    "-file", pem.getFileName().toString());
            keytool("-importcert", "-noprompt", "-alias", "spindle-ca", "-file", pem.getFileName().toString(),
                    "-storetype", "PKCS12", "-keystore", trust, "-storepass:env", PASSWORD_ENV);
            // a trust store without its CA's store is of a CA that is gone: replaced
            // keytool makes it as the umask allows; a member refuses a trust store its group or
            // others may write (PekkoClusterSettings), which a umask of 002 gives
            notWritableByOthers(dir.resolve(trust));
            Files.move(dir.resolve(trust), trustStore(), StandardCopyOption.REPLACE_EXISTING);
            Files.move(dir.resolve(ca), dir.resolve(CA_STORE));
        } finally {
            Files.deleteIfExists(dir.resolve(ca));
            Files.deleteIfExists(dir.resolve(trust));
            Files.deleteIfExists(work);
        }
        return trustStore();
    }

    /**
     * Creates {@code member}'s key store, signed by this directory's CA (created first if missing).
     *
     * @param member the member's name, also the certificate's common name
     * @return the new key store's path
     * @throws FileAlreadyExistsException if the member's store exists
     * @throws IllegalArgumentException if the name is not made of letters, digits, '.', '_', '-'
     * @throws IOException if {@code keytool} fails, does not finish within 60 s or is interrupted
     */
    public Path createMember(String member) throws IOException {
        Path store = newStore(member);
        createCa();
        Path work = workDirectory();
        String file = partial(work, store.getFileName().toString());
        String csr = member + ".csr";
        String pem = member + ".pem";
        try {
            generateKey(member, file);
            keytool("-certreq", "-alias", "member", "-keystore", file, "-storepass:env", PASSWORD_ENV, "-file", csr);
            keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", CA_STORE, "-storepass:env", PASSWORD_ENV,
                    "-infile", csr, "-outfile", pem, "-validity", days(),
                    "-ext", "EKU=serverAuth,clientAuth", "-ext", "SAN=ip:127.0.0.1,dns:localhost");
            keytool("-importcert", "-noprompt", "-alias", "spindle-ca", "-file", "ca.pem", "-keystore", file,
                    "-storepass:env", PASSWORD_ENV);
            keytool("-importcert", "-alias", "member", "-file", pem, "-keystore", file, "-storepass:env", PASSWORD_ENV);
            Files.move(dir.resolve(file), store);      // a rename; refused if the store exists
        } finally {
            Files.deleteIfExists(dir.resolve(csr));
            Files.deleteIfExists(dir.resolve(pem));
            Files.deleteIfExists(dir.resolve(file));
            Files.deleteIfExists(work);
        }
        return store;
    }

    /**
     * Creates a key store for {@code member} whose certificate is self-signed, signed by no CA:
     * a cluster refuses it. For tests and for checking a deployment.
     *
     * @param member the member's name: letters, digits, '.', '_' and '-'
     * @return the new key store's path
     * @throws java.nio.file.FileAlreadyExistsException if the member's store exists
     * @throws IllegalArgumentException if the name is not usable
     * @throws IOException if {@code keytool} fails, does not finish within 60 s or is interrupted
     */
    public Path createSelfSigned(String member) throws IOException {
        Path store = newStore(member);
        Path work = workDirectory();
        String file = partial(work, store.getFileName().toString());
        try {
            generateKey(member, file);
            Files.move(dir.resolve(file), store);
        } finally {
            Files.deleteIfExists(dir.resolve(file));
            Files.deleteIfExists(work);
        }
        return store;
    }

    /**
     * The name a store is built under until it is complete, in {@code work}: relative to
     * {@link #dir}, where {@code keytool} runs.
     */
    private String partial(Path work, String store) {
        return dir.relativize(work.resolve(store + ".partial")).toString();
    }

    /**
     * A new directory in {@link #dir} for building one store, that only the owner can enter where
     * permissions are POSIX: a file {@code keytool} makes there is out of other users' reach from
     * the start, whatever the umask and {@link #dir}'s own permissions (see the class comment).
     */
    private Path workDirectory() throws IOException {
        return posix() ? Files.createTempDirectory(dir, ".partial-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------"))) : Files.createTempDirectory(dir, ".partial-");
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private Path newStore(String member) throws IOException {
        Path store = memberStore(member);
        if (Files.exists(store)) {
            throw new FileAlreadyExistsException(store.toString(), null, "the member's key store exists");
        }
        createDirectory(dir);
        return store;
    }

    private void generateKey(String member, String file) throws IOException {
        keytool("-genkeypair", "-alias", "member", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + member, "-validity", days(), "-ext", "EKU=serverAuth,clientAuth",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12", "-keystore", file,
                "-storepass:env", PASSWORD_ENV, "-keypass:env", PASSWORD_ENV);
        // keytool creates it as the umask allows (world-readable, usually); it is rewritten in
        // place by the imports that follow, and renamed, which keep these permissions
        ownerOnly(dir.resolve(file));
    }

    /**
     * Creates {@code dir} (and missing parents) for the owner only, where permissions are POSIX;
     * then, or if it exists, checks that it is this user's alone to write in ({@link #checkTrusted}).
     */
    private static void createDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            if (posix()) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
        }
        checkTrusted(dir);
    }

    /** The sticky bit of a mode: in such a directory only a file's owner may rename or remove it. */
    private static final int STICKY = 01000;

    /**
     * Refuses a directory in which another local user could put files or replace them, before
     * anything in it is read or written: the command takes a CA store under its own name as one
     * it made, reads the password file it finds, and imports the {@code ca.pem} there, so another
     * user who could write in the directory (one they made, {@code /tmp/certs} say, or one open to
     * all) planted their own CA beforehand, or swapped the trust store afterwards, and the cluster
     * then admitted every member that CA signs. As {@code ssh} checks its key files' directories:
     * the directory must belong to this user and be writable by no one else (group and others),
     * and no directory above it may be writable by everyone unless it is sticky ({@code /tmp}),
     * where only a file's owner may rename it. (A parent writable by its group, as a umask of 002
     * makes them, and one of another user, such as a checkout owned by a build's user, are let
     * be: that is the operator's own set-up.) Where the file system has no POSIX permissions, its
     * access lists are the operator's to check, as elsewhere in this class.
     *
     * <p>The same rule as the cluster's {@code OwnFiles} (the launchers' secret files, a member's
     * stores), save for a directory of another user's above it, which {@code OwnFiles} refuses
     * (its owner may rename anything in it), written out here because this class also runs as a single-file program
     * ({@code ./spindle certs}), which may use the JDK alone.
     *
     * @throws IOException if the directory or one above it is open to others, or cannot be looked at
     */
    static void checkTrusted(Path dir) throws IOException {
        if (!posix()) {
            return;
        }
        Path real = dir.toRealPath();
        UserPrincipal me = currentUser(real);
        PosixFileAttributes own = Files.readAttributes(real, PosixFileAttributes.class);
        if (me != null && !own.owner().equals(me)) {
            throw new IOException(dir + " belongs to " + own.owner().getName() + ", not to " + me.getName()
                    + ": its owner could put their own CA or password there; choose a directory of your own");
        }
        Set<PosixFilePermission> p = own.permissions();
        if (p.contains(PosixFilePermission.GROUP_WRITE) || p.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException(dir + ": others than its owner may write in it ("
                    + PosixFilePermissions.toString(p) + ") and could put their own CA, trust store or password"
                    + " there: make it its owner's alone (chmod go-w " + dir + ") or choose another directory");
        }
        for (Path up = real.getParent(); up != null; up = up.getParent()) {
            int mode;
            try {
                mode = (Integer) Files.getAttribute(up, "unix:mode");
            } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
                return;                       // the directory itself was checked; its parents cannot be
            }
            if ((mode & 0002) != 0 && (mode & STICKY) == 0) {
                throw new IOException(dir + ": anyone may write in " + up + " above it (not sticky), and could"
                        + " replace " + dir + " with a directory of their own: choose another directory");
            }
        }
    }

    /** This process's user, as the file system names owners; {@code null} if it cannot be told. */
    private static UserPrincipal currentUser(Path on) {
        try {
            return on.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | RuntimeException unknown) {
            return null;                      // a user without a name (a container's bare uid): permissions alone
        }
    }

    /** Leaves only its owner the right to write {@code file} (all may read it), where permissions are POSIX. */
    private static void notWritableByOthers(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException notPosix) {
            // a file system without POSIX permissions: the directory's own protection applies
        }
    }

    /** Takes every permission but the owner's from a file holding a private key, where permissions are POSIX. */
    private static void ownerOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // a file system without POSIX permissions: the directory's own protection applies
        }
    }

    private static String days() {
        return Integer.toString(VALIDITY_DAYS);
    }

    private static String checkName(String member) {
        Objects.requireNonNull(member, "member");
        if (!member.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}") || member.equals("ca") || member.equals("truststore")) {
            throw new IllegalArgumentException("not a usable member name: '" + member
                    + "' (letters, digits, '.', '_', '-'; not 'ca' or 'truststore')");
        }
        return member;
    }

    private void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // keytool is a short-lived JVM: a quick start matters more than peak speed
        command.add("-J-XX:TieredStopAtLevel=1");
        command.add("-J-XX:+UseSerialGC");
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put(PASSWORD_ENV, password);
        Process p = pb.start();
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("keytool " + args[0] + " did not finish within 60 s");
            }
            if (p.exitValue() != 0) {
                throw new IOException("keytool " + args[0] + " failed (exit " + p.exitValue() + "): " + output.strip());
            }
            step();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool " + args[0] + " ran", e);
        }
    }

    /**
     * {@code DevCertificates DIR [member...]}: creates the CA (unless present) and each member's
     * store; {@code --help} (or {@code -h}) alone prints the usage. Exits with status 2 on bad
     * arguments (a member name unusable, given twice or whose store exists; checked before
     * anything is written), 1 if keytool fails.
     *
     * @param args the directory, then the names of the members to create
     */
    public static void main(String[] args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            // ./spindle --help tells the user to ask each command for its options, certs included
            System.out.println("Makes a development CA (" + CA_STORE + ", " + TRUST_STORE + ") and a key store per member"
                    + " (<member>.p12) in DIR, for the Pekko cluster transport's TLS.");
            System.out.println(USAGE);
            return;
        }
        // an empty DIR ("$DIR" of an unset variable) is no directory: to Path.of it is the current
        // one, where the password file was written before keytool failed on the empty path
        if (args.length == 0 || args[0].isEmpty() || args[0].startsWith("-")) {
            System.err.println(args.length == 0 || args[0].isEmpty() ? "spindle certs: no directory given"
                    : "spindle certs: unknown option " + args[0]);
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        try {
            Path dir = Path.of(args[0]);
            // Every member argument is checked before anything is written (the directory, a
            // generated password, the CA): a bad one is a usage error that leaves no trace, and a
            // name given twice would otherwise fail only after its first store had been made.
            List<String> members = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                Path store = dir.resolve(checkName(args[i]) + ".p12");
                if (members.contains(args[i])) {
                    throw new IllegalArgumentException("member '" + args[i] + "' given twice");
                }
                if (Files.exists(store)) {
                    throw new IllegalArgumentException("member '" + args[i] + "' exists already: " + store);
                }
                members.add(args[i]);
            }
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                throw new IllegalArgumentException(dir + " exists and is not a directory");
            }
            DevCertificates certs = new DevCertificates(dir, password(dir));
            System.out.println("trust store: " + certs.createCa());
            for (int i = 1; i < args.length; i++) {
                System.out.println("member " + args[i] + ": " + certs.createMember(args[i]));
            }
            System.out.println("keep " + dir.resolve(CA_STORE) + " (the CA key) away from the members");
        } catch (IllegalArgumentException e) {
            System.err.println("spindle certs: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
        } catch (IOException e) {
            System.err.println("spindle certs: " + describe(e));
            System.exit(1);
        }
    }

    /**
     * What went wrong, for the user: a file-system exception's message is often its path alone
     * (a directory it may not write, a file there already), printed as
     * {@code spindle certs: /path}, which said nothing of why; the path and the reason then.
     */
    static String describe(IOException e) {
        if (!(e instanceof FileSystemException f) || f.getReason() != null || f.getFile() == null) {
            return e.getMessage() != null ? e.getMessage() : e.toString();
        }
        String why = e instanceof AccessDeniedException ? "permission denied"
                : e instanceof NoSuchFileException ? "no such file or directory"
                : e instanceof FileAlreadyExistsException ? "exists already"
                : e.getClass().getSimpleName();
        return f.getFile() + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "") + ": " + why;
    }

    private static void step() {
        Runnable hook = afterEachStep;
        if (hook != null) {
            hook.run();
        }
    }

    /** SPINDLE_STORE_PASSWORD, else the directory's password file, else a new one written there. */
    static String password(Path dir) throws IOException {
        String env = System.getenv("SPINDLE_STORE_PASSWORD");
        if (env != null && !env.isEmpty()) {
            return env;
        }
        Path file = dir.resolve(PASSWORD_FILE);
        if (Files.isDirectory(dir)) {
            checkTrusted(dir);                // before a password file another user may have put there is read
        }
        if (Files.exists(file)) {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        }
        createDirectory(dir);
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        // the owner's from its creation: narrowed after, it could be opened by another user in
        // between, who would then read the password through that descriptor once written
        if (posix()) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
            Files.createFile(file);           // the directory's own protection applies
        }
        step();
        Files.writeString(file, generated + "\n", StandardCharsets.UTF_8);
        System.out.println("generated store password: " + file);
        return generated;
    }
}
