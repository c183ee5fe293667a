package io.headroom.cli;

import io.headroom.config.ConfigException;
import io.headroom.config.ConfigTree;
import io.headroom.config.UntrustedText;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The checks every command makes on the files it is given, once, while its options are parsed:
 * a file to read exists, can be read and is not a directory; a file to write does not exist yet.
 */
final class InputFiles {
    private InputFiles() {
    }

    /**
     * A problem the config reader locates ({@code FILE:1: is a directory, not a file}): printed as it is,
     * without the command's name, like the reader's problems inside the file.
     */
    static final class Located extends TypeConversionException {
        private static final long serialVersionUID = 1L;

        Located(ConfigException e) {
            super(e.getMessage());
        }
    }

    /**
     * A workloads or scenario file ({@code --config}, {@code --scenario}): a .yaml/.yml/.json regular file the
     * config reader can read (exists, readable, not a directory, not too large, UTF-8). Its content is checked
     * by the command, with the same FILE:LINE: messages.
     */
    static final class ConfigFile implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            Path path = path(value);
            try {
                ConfigTree.formatOf(path);
                ConfigTree.readText(path);
            } catch (ConfigException e) {
                throw new Located(e);
            }
            return path;
        }
    }

    /** A file read by another reader ({@code --kubeconfig}): it exists, is readable and is not a directory. */
    static final class ReadableFile implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            Path path = path(value);
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(path, BasicFileAttributes.class);
            } catch (NoSuchFileException e) {
                throw problem(path, "no such file");
            } catch (AccessDeniedException e) {
                throw problem(path, "cannot be read: permission denied");
            } catch (FileSystemException e) {
                String why = e.getReason() == null ? "" : e.getReason();
                throw problem(path, why.toLowerCase(Locale.ROOT).contains("symbolic link")
                        ? "cannot be read: a loop of symbolic links" : "cannot be read: " + why);
            } catch (IOException e) {
                throw problem(path, "cannot be read: " + io.headroom.ErrorWords.of(e));
            }
            if (a.isDirectory()) {
                throw problem(path, "is a directory, not a file");
            }
            if (!Files.isReadable(path)) {
                throw problem(path, "cannot be read: permission denied");
            }
            return path;
        }
    }

    /** A file to write ({@code --out}): it must not exist, nothing is overwritten. */
    static final class NewFile implements ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            Path path = path(value);
            if (Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new TypeConversionException(UntrustedText.line(value, 300)
                        + " exists; choose another --out (nothing is overwritten)");
            }
            return path;
        }
    }

    private static Path path(String value) {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new TypeConversionException("'" + UntrustedText.line(value, 300) + "' is not a file path");
        }
    }

    private static TypeConversionException problem(Path path, String what) {
        return new TypeConversionException(UntrustedText.line(path.toString(), 300) + ": " + what);
    }
}
