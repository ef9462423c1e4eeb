/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the READMEs honest: every {@code ```java} block of {@code README.md}, of every
 * module's {@code spindle-*}{@code /README.md} (found by globbing, so a new module is covered
 * without a change here) and of the guides {@code docs/*.md} must appear in this module's test
 * sources, which the build compiles.
 *
 * <p>A block matches a source file when its paragraphs (runs of lines between blank lines)
 * appear in that file in order, each as consecutive lines, comparing lines without their
 * leading and trailing white space. Paragraphs may be apart so that a snippet mixing imports,
 * declarations and statements can sit in a wrapper (imports on top, statements in a method);
 * every line of the snippet is still compiled exactly as the README shows it. A block that is
 * deliberately not Java (a shell command, a configuration file) takes another fence language.
 */
class ReadmeSnippetsTest {

    /** One {@code ```java} block: where it is and its lines, without the fences. */
    record Snippet(String readme, int line, List<String> lines) {
        @Override
        public String toString() {
            String first = lines.stream().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
            return readme + ":" + line + ": " + first;
        }
    }

    @Test
    void everyJavaSnippetInTheReadmesIsCompiledHere() throws IOException {
        List<Snippet> snippets = new ArrayList<>();
        for (Path readme : readmes()) {
            snippets.addAll(snippets(root().relativize(readme).toString(), Files.readAllLines(readme)));
        }
        assertThat(snippets).as("java snippets in README.md").anyMatch(s -> s.readme().equals("README.md"));
        Map<Path, List<String>> sources = sources();
        List<Snippet> missing = snippets.stream()
                .filter(s -> sources.values().stream().noneMatch(src -> contains(src, s.lines())))
                .toList();
        if (!missing.isEmpty()) {
            fail("README snippets not found verbatim in " + root().relativize(sourceDir())
                    + " (add or update the wrapper there; a non-Java block takes another fence language):\n  "
                    + String.join("\n  ", missing.stream().map(Snippet::toString).toList()));
        }
    }

    /** The Maven coordinates in the READMEs name a module of this build, at this build's version. */
    @Test
    void theReadmesMavenCoordinatesMatchTheBuild() throws IOException {
        String version = System.getProperty("spindle.version");
        assertThat(version).as("spindle.version, set by the pom").isNotBlank();
        Pattern dependency = Pattern.compile(
                "<groupId>dev\\.spindle</groupId>\\s*<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>");
        int found = 0;
        for (Path readme : readmes()) {
            Matcher m = dependency.matcher(Files.readString(readme));
            while (m.find()) {
                found++;
                String where = root().relativize(readme) + ": " + m.group(1);
                assertThat(m.group(2)).as(where).isEqualTo(version);
                assertThat(root().resolve(m.group(1)).resolve("pom.xml")).as(where).isRegularFile();
            }
        }
        assertThat(found).as("dev.spindle dependencies in the READMEs").isPositive();
    }

    @Test
    void aSnippetEditedOnlyInTheReadmeIsCaught() {
        List<String> source = List.of("import a.B;", "", "class C {", "    void m() {",
                "        int x = 1;", "        int y = x + 1;", "    }", "}");
        assertThat(contains(source, List.of("import a.B;", "", "int x = 1;", "int y = x + 1;"))).isTrue();
        assertThat(contains(source, List.of("  int x = 1;", "  int y = x + 1;"))).isTrue();
        assertThat(contains(source, List.of("int x = 1;", "int y = x + 2;"))).as("an edited line").isFalse();
        assertThat(contains(source, List.of("int x = 1;", "", "import a.B;"))).as("out of order").isFalse();
        assertThat(contains(source, List.of("int x = 1;", "int z = 0;", "int y = x + 1;")))
                .as("a line inserted").isFalse();
    }

    @Test
    void blocksAreReadWithTheirLineNumbersAndOnlyForJava() {
        List<String> readme = List.of("# T", "```sh", "mvn verify", "```", "", "```java",
                "int x = 1;", "```", "```", "int y;", "```");
        assertThat(snippets("R.md", readme)).containsExactly(new Snippet("R.md", 7, List.of("int x = 1;")));
        assertThat(snippets("R.md", List.of("```java", "int x;")))        // unterminated: kept, so checked
                .containsExactly(new Snippet("R.md", 2, List.of("int x;")));
    }

    // ------------------------------------------------------------------ extraction and matching

    /** The {@code ```java} blocks of a README; an unterminated one ends at the end of the file. */
    static List<Snippet> snippets(String readme, List<String> lines) {
        List<Snippet> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i).strip();
            if (!fence.startsWith("```")) {
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().startsWith("```")) {
                end++;
            }
            if (fence.substring(3).strip().split("\\s+")[0].equals("java")) {
                out.add(new Snippet(readme, i + 2, List.copyOf(lines.subList(i + 1, end))));
            }
            i = end;
        }
        return out;
    }

    /**
     * Whether the snippet's paragraphs occur in {@code source} in order, each on consecutive
     * lines, ignoring leading and trailing white space. Taking each paragraph's first occurrence
     * after the previous one is enough: a later occurrence never leaves more room.
     */
    static boolean contains(List<String> source, List<String> snippet) {
        List<String> src = source.stream().map(String::strip).toList();
        int from = 0;
        for (List<String> paragraph : paragraphs(snippet)) {
            int at = indexOf(src, paragraph, from);
            if (at < 0) {
                return false;
            }
            from = at + paragraph.size();
        }
        return true;
    }

    private static List<List<String>> paragraphs(List<String> lines) {
        List<List<String>> out = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String line : lines) {
            String l = line.strip();
            if (l.isEmpty()) {
                if (!current.isEmpty()) {
                    out.add(current);
                    current = new ArrayList<>();
                }
            } else {
                current.add(l);
            }
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    private static int indexOf(List<String> src, List<String> paragraph, int from) {
        for (int i = from; i + paragraph.size() <= src.size(); i++) {
            if (src.subList(i, i + paragraph.size()).equals(paragraph)) {
                return i;
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------ files

    /** The checkout: this module's parent directory (Surefire runs in the module directory). */
    private static Path root() {
        Path module = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        return module.getParent();
    }

    private static Path sourceDir() {
        return root().resolve("spindle-examples/src/test/java");
    }

    /**
     * README.md, every module's README and the guides in docs/ (not their sub-folders: the raw
     * measurements quote code they reviewed, which need not compile today).
     */
    private static List<Path> readmes() throws IOException {
        List<Path> out = new ArrayList<>();
        out.add(root().resolve("README.md"));
        try (DirectoryStream<Path> modules = Files.newDirectoryStream(root(), "spindle-*")) {
            for (Path module : modules) {
                Path readme = module.resolve("README.md");
                if (Files.isRegularFile(readme)) {
                    out.add(readme);
                }
            }
        }
        try (DirectoryStream<Path> guides = Files.newDirectoryStream(root().resolve("docs"), "*.md")) {
            for (Path guide : guides) {
                out.add(guide);
            }
        }
        out.sort(null);
        return out;
    }

    private static Map<Path, List<String>> sources() throws IOException {
        Map<Path, List<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sourceDir())) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                try {
                    out.put(f, Files.readAllLines(f));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        assertThat(out).as("java sources in " + sourceDir()).isNotEmpty();
        return out;
    }
}
