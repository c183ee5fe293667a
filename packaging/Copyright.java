import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the Debian copyright file (machine-readable format 1.0) of the package from what it bundles:
 * for each jar of the app image, its Maven coordinates (Maven's list of them, target/lib.list) and the licences
 * its pom declares (read from the local Maven repository, following parent poms), so a new dependency
 * is listed without editing a file by hand. Run by packaging/build:
 * {@code java packaging/Copyright.java target/lib.list LIBDIR INSTALLED_LIBDIR [LIBDIR INSTALLED_LIBDIR]… > copyright}.
 */
public class Copyright {
    /** The short names DEP-5 uses, by the names and URLs poms give. */
    static String shortName(String name, String url) {
        String s = (name + " " + url).toLowerCase();
        if (s.contains("apache")) {
            return "Apache-2.0";
        }
        if (s.contains("mit")) {
            return "MIT";
        }
        if (s.contains("classpath") || s.contains("gplv2+ce")) {
            return "GPL-2-with-classpath-exception";
        }
        if (s.contains("eclipse public license") && s.contains("2.0") || s.contains("epl-2.0")) {
            return "EPL-2.0";
        }
        return name.strip().replace(' ', '-');
    }

    static final Map<String, String> TEXTS = Map.of(
            "Apache-2.0", " On Debian systems the full text is in /usr/share/common-licenses/Apache-2.0.",
            "GPL-2-with-classpath-exception", " GNU General Public License, version 2, with the Classpath Exception.\n"
                    + " On Debian systems the GPL's text is in /usr/share/common-licenses/GPL-2; the exception's is in\n"
                    + " /opt/headroom/lib/runtime/legal/java.base/LICENSE.",
            "MIT", " Permission is hereby granted, free of charge, to any person obtaining a copy of this software\n"
                    + " and associated documentation files (the \"Software\"), to deal in the Software without\n"
                    + " restriction, including without limitation the rights to use, copy, modify, merge, publish,\n"
                    + " distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the\n"
                    + " Software is furnished to do so, subject to the following conditions:\n .\n"
                    + " The above copyright notice and this permission notice shall be included in all copies or\n"
                    + " substantial portions of the Software.\n .\n"
                    + " THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING\n"
                    + " BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND\n"
                    + " NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,\n"
                    + " DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,\n"
                    + " OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.");

    static final Path REPO = Path.of(System.getProperty("maven.repo.local",
            Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));

    record Licence(String name, String url) {
    }

    record Pom(String text) {
        String first(String tag, String in) {
            Matcher m = Pattern.compile("<" + tag + ">\\s*([^<]*?)\\s*</" + tag + ">").matcher(in);
            return m.find() ? m.group(1) : null;
        }

        String block(String tag) {
            Matcher m = Pattern.compile("<" + tag + ">(.*?)</" + tag + ">", Pattern.DOTALL).matcher(text);
            return m.find() ? m.group(1) : null;
        }
    }

    static Pom pom(String g, String a, String v) throws IOException {
        Path p = REPO.resolve(g.replace('.', '/')).resolve(a).resolve(v).resolve(a + "-" + v + ".pom");
        return Files.exists(p) ? new Pom(Files.readString(p)) : null;
    }

    /** The licences a pom declares, else its parent's, and so on. */
    static List<Licence> licences(String g, String a, String v) throws IOException {
        for (int depth = 0; depth < 10; depth++) {
            Pom pom = pom(g, a, v);
            if (pom == null) {
                return List.of();
            }
            String block = pom.block("licenses");
            if (block != null) {
                List<Licence> found = new ArrayList<>();
                Matcher m = Pattern.compile("<license>(.*?)</license>", Pattern.DOTALL).matcher(block);
                while (m.find()) {
                    found.add(new Licence(String.valueOf(pom.first("name", m.group(1))),
                            String.valueOf(pom.first("url", m.group(1)))));
                }
                if (!found.isEmpty()) {
                    return found;
                }
            }
            String parent = pom.block("parent");
            if (parent == null) {
                return List.of();
            }
            g = pom.first("groupId", parent);
            a = pom.first("artifactId", parent);
            v = pom.first("version", parent);
        }
        return List.of();
    }

    public static void main(String[] args) throws IOException {
        // Maven's list of the runtime dependencies: "group:artifact:type[:classifier]:version:scope:/path/file.jar …"
        Map<String, String[]> listed = new TreeMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.strip().split(" ")[0].split(":");
            if (f.length >= 6 && f[f.length - 1].endsWith(".jar")) {
                listed.put(Path.of(f[f.length - 1]).getFileName().toString(), new String[] {f[0], f[1], f[f.length - 3]});
            }
        }
        // licence expression -> the files under it, with their coordinates
        Map<String, List<String>> files = new TreeMap<>();
        Map<String, List<String>> comments = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
          Path lib = Path.of(args[i]);
          String installed = args[i + 1];
          try (var jars = Files.list(lib)) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                String name = jar.getFileName().toString();
                String[] gav = listed.get(name);
                String coords = gav == null ? null : gav[0] + ":" + gav[1] + " " + gav[2];
                List<Licence> found = gav == null ? List.of() : licences(gav[0], gav[1], gav[2]);
                if (found.isEmpty()) {
                    unknown.add(name);
                    continue;
                }
                String expr = String.join(" or ", found.stream().map(l -> shortName(l.name(), l.url())).distinct().toList());
                files.computeIfAbsent(expr, k -> new ArrayList<>()).add(installed + "/" + name);
                comments.computeIfAbsent(expr, k -> new ArrayList<>()).add(coords);
            }
          }
        }
        if (!unknown.isEmpty()) {
            System.err.println("copyright: no licence found for " + unknown + " (their poms are not in " + REPO + ")");
            System.exit(1);
        }
        StringBuilder sb = new StringBuilder();
        sb.append("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n")
                .append("Upstream-Name: headroom\n")
                .append("Upstream-Contact: Headroom maintainers <maintainers@headroom.dev>\n")
                .append("Source: https://headroom.dev\n\n")
                .append("Files: *\nCopyright: 2026 Headroom maintainers\nLicense: Apache-2.0\n\n")
                .append("Files: opt/headroom/lib/runtime/*\nCopyright: Oracle and/or its affiliates, and the OpenJDK contributors\n")
                .append("License: GPL-2-with-classpath-exception\nComment: the Java runtime (OpenJDK), linked by jlink;\n")
                .append(" each module's notices are under opt/headroom/lib/runtime/legal.\n\n");
        for (var e : files.entrySet()) {
            sb.append("Files: ").append(String.join("\n ", e.getValue().stream().map(f -> f.replaceFirst("^/", "")).toList()));
            sb.append("\nCopyright: the authors of each library, as its jar's notices say\n")
                    .append("License: ").append(e.getKey()).append('\n')
                    .append("Comment: Maven artifacts:\n ")
                    .append(String.join("\n ", comments.get(e.getKey()).stream().distinct().toList())).append("\n\n");
        }
        java.util.Set<String> used = new java.util.TreeSet<>(List.of("Apache-2.0", "GPL-2-with-classpath-exception"));
        files.keySet().forEach(k -> used.addAll(List.of(k.split(" or "))));
        for (String l : used) {
            sb.append("License: ").append(l).append('\n')
                    .append(TEXTS.getOrDefault(l, " See the library's own licence file in its jar.")).append("\n\n");
        }
        System.out.print(sb.toString().stripTrailing() + "\n");
    }
}
