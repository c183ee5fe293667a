package io.headroom.config;

import java.nio.file.Path;

/**
 * A console saving a policy edit that is killed half way, run in its own JVM by
 * {@link WorkloadsFileSaveCrashTest}: saves {@code maxReplicas: 25} for {@code payments} into the file
 * {@code args[0]}, printing "STEP name" as the save reaches each step; at the step named in {@code args[1]}
 * it prints "AT name" and waits, to be killed there (SIGKILL: no shutdown hook, no clean-up).
 */
public final class WorkloadsFileSaveProbe {
    private WorkloadsFileSaveProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        String killAt = args[1];
        var original = WorkloadsFileEditTest.policyOf(file, "payments");
        WorkloadsFileEdit.save(file, "payments", original, original.toBuilder().maxReplicas(25).build(), step -> {
            System.out.println("STEP " + step);
            if (step.equals(killAt)) {
                System.out.println("AT " + step);
                System.out.flush();
                System.in.read(); // until killed (or the test closes our input)
                Runtime.getRuntime().halt(3);
            }
            System.out.flush();
        });
        System.out.println("SAVED");
    }
}
