package dev.weft.net.launch;

import dev.weft.net.NodeAddress;
import java.util.Map;

/**
 * A pod of a Kubernetes indexed Job, with a headless Service that gives each pod a stable DNS name (the pod
 * template's {@code subdomain} is the Service's name; manifest in docs/distributed.md), finds its place from its
 * environment: its index is {@code JOB_COMPLETION_INDEX}; its host name ({@code HOSTNAME}) is
 * {@code <job>-<index>}, so node 0 is the pod {@code <job>-0}, reached at {@code <job>-0.<service>}; the number
 * of nodes is {@code WEFT_NODES} (the Job's completions) and the Service {@code WEFT_SERVICE}, both set in the
 * manifest. Node 0 listens on {@code WEFT_PORT} (default 7077); every pod listens on its own stable name.
 */
final class KubernetesPlacement {
    static final int DEFAULT_PORT = 7077;
    private static final String IN_AN_INDEXED_JOB = "run this in a pod of an indexed Job (completionMode: Indexed)";
    private static final String IN_THE_MANIFEST = "set it in the pod's env, as the manifest in docs/distributed.md does";

    private KubernetesPlacement() {
    }

    static Placement of(Map<String, String> env) {
        int index = Placement.requireInt(env, "JOB_COMPLETION_INDEX", IN_AN_INDEXED_JOB);
        int size = Placement.requireInt(env, "WEFT_NODES", IN_THE_MANIFEST);
        String service = Placement.require(env, "WEFT_SERVICE", IN_THE_MANIFEST);
        String pod = Placement.require(env, "HOSTNAME", IN_AN_INDEXED_JOB);
        String suffix = "-" + index;
        if (!pod.endsWith(suffix) || pod.length() == suffix.length()) {
            throw new IllegalArgumentException("HOSTNAME " + pod + " is not <job>" + suffix + ": an indexed Job names"
                    + " its pods' hosts so; is this a pod of one?");
        }
        String job = pod.substring(0, pod.length() - suffix.length());
        int port = env.containsKey("WEFT_PORT") ? Placement.requireInt(env, "WEFT_PORT", "") : DEFAULT_PORT;
        return new Placement(index, size, new NodeAddress(job + "-0." + service, port), pod + "." + service,
                "pod " + pod);
    }
}
