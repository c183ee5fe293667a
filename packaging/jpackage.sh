#!/usr/bin/env bash
# Builds a self-contained Headroom app image with the JDK's jpackage:
#   target/dist/Headroom/bin/Headroom   (Linux; the same recipe works on macOS/Windows with their icons)
# The JavaFX jars ride on the classpath; the launcher class (io.headroom.Main) does not extend
# Application, which is what lets JavaFX start from the classpath.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mvn -q -B -ntp -Dmaven.test.skip=true package
rm -rf target/package-input target/dist
mkdir -p target/package-input/lib target/dist
cp target/headroom.jar target/package-input/
cp target/lib/*.jar target/package-input/lib/

# jdeps cannot list modules here (okio is an automatic module), so the runtime's modules are named by
# hand: JavaFX needs java.desktop and jdk.unsupported, FXML java.scripting/java.xml, fabric8 and OkHttp
# java.naming, java.management and jdk.crypto.ec for TLS, logging java.logging.
modules=java.base,java.desktop,java.logging,java.management,java.naming,java.net.http,java.scripting,java.sql,java.xml,jdk.crypto.ec,jdk.unsupported,jdk.jfr,java.security.jgss,jdk.localedata,jdk.charsets

version="$(sed -n 's:.*<version>\([0-9][0-9.]*\).*</version>.*:\1:p' pom.xml | head -1)"
jpackage --type app-image \
  --name Headroom \
  --app-version "${version:-0.1.0}" \
  --vendor "Headroom" \
  --input target/package-input \
  --main-jar headroom.jar \
  --main-class io.headroom.Main \
  --icon icons/headroom-256.png \
  --add-modules "$modules" \
  --jlink-options "--strip-debug --no-header-files --no-man-pages --compress=2" \
  --java-options "-Dprism.lcdtext=false" \
  --dest target/dist

du -sh target/dist/Headroom
echo "run: target/dist/Headroom/bin/Headroom    (or: target/dist/Headroom/bin/Headroom simulate --scenario examples/scenarios/burst.yaml)"
