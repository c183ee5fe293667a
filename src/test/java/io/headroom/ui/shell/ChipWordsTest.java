package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The top bar's chips in few words: what a warning is about, never its first letters cut with "…". */
class ChipWordsTest {

    @Test
    void aWarningSaysWhatItIsAboutAndHowManyMore() {
        assertEquals("", ChipWords.warning(""));
        assertEquals("sandbox opened instead", ChipWords.warning("Could not open /home/op/workloads.yaml: kubeconfig"
                + " /home/op/.kube/config:5 — failed: malformed YAML — opened the sandbox."));
        assertEquals("TLS not verified", ChipWords.warning("TLS verification is OFF for context 'kind-payments-eu-west-1'"
                + " (insecure-skip-tls-verify in /home/op/.kube/config): the API server at https://10.0.0.1:6443 is not"
                + " checked to be who it says"));
        assertEquals("plain http", ChipWords.warning("context 'dev' talks plain http to http://10.0.0.2:8080: the API"
                + " traffic is not encrypted"));
        assertEquals("credentials unencrypted · +1 more", ChipWords.warning("Prometheus credentials go in clear text over"
                + " http:// (allowInsecureCredentials); Journal unavailable"));
        assertEquals("Journal unavailable", ChipWords.warning("Journal unavailable"));
        assertEquals("The journal could not be …", ChipWords.warning("The journal could not be opened at all because"
                + " its directory is read-only"));
    }

    @Test
    void blockedClassesAreCountedInFullOrShort() {
        assertEquals("", ChipWords.blocked(0, true));
        assertEquals("1 class observe-only here", ChipWords.blocked(1, false));
        assertEquals("2 classes observe-only here", ChipWords.blocked(2, false));
        assertEquals("2 observe-only", ChipWords.blocked(2, true));
    }
}
