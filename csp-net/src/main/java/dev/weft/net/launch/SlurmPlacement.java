package dev.weft.net.launch;

import dev.weft.net.NodeAddress;
import java.util.Map;

/**
 * A task of a Slurm job step ({@code srun -n 4 java ... ClusterTask slurm ...}) finds its place from Slurm's
 * environment: its index is {@code SLURM_PROCID}, the number of nodes {@code SLURM_STEP_NUM_TASKS} (or
 * {@code SLURM_NTASKS}), and node 0 is task 0, which Slurm runs on the step's first node (the first host of
 * {@code SLURM_STEP_NODELIST}; set {@code WEFT_NODE0} to a host name when a distribution puts it elsewhere). Node 0's
 * port: {@code WEFT_PORT}, else the step's first reserved port ({@code SLURM_STEP_RESV_PORTS}, with
 * {@code MpiParams=ports=...} in slurm.conf), else one derived from the job and step ids (17000 to 31999), so that
 * every task computes the same port without asking. Other tasks listen on a free port of their own node
 * ({@code SLURMD_NODENAME}).
 */
final class SlurmPlacement {
    private static final String IN_A_STEP = "run this in a Slurm job step (srun)";
    private static final int DERIVED_PORTS = 17000;
    private static final int DERIVED_PORT_COUNT = 15000;

    private SlurmPlacement() {
    }

    static Placement of(Map<String, String> env) {
        int index = Placement.requireInt(env, "SLURM_PROCID", IN_A_STEP);
        int size = Placement.requireInt(env, env.containsKey("SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS",
                IN_A_STEP);
        String node0 = env.containsKey("WEFT_NODE0") ? env.get("WEFT_NODE0")
                : firstHost(Placement.require(env, env.containsKey("SLURM_STEP_NODELIST") ? "SLURM_STEP_NODELIST"
                : "SLURM_NODELIST", IN_A_STEP));
        String here = Placement.require(env, "SLURMD_NODENAME", IN_A_STEP);
        return new Placement(index, size, new NodeAddress(node0, port(env)), index == 0 ? node0 : here,
                "slurm task " + index + " on " + here);
    }

    private static int port(Map<String, String> env) {
        if (env.containsKey("WEFT_PORT")) {
            return Placement.requireInt(env, "WEFT_PORT", "");
        }
        String reserved = env.get("SLURM_STEP_RESV_PORTS");
        if (reserved != null && !reserved.isBlank()) {
            return Integer.parseInt(reserved.split("[-,]")[0].trim());
        }
        long job = Placement.requireInt(env, "SLURM_JOB_ID", IN_A_STEP);
        long step = env.containsKey("SLURM_STEP_ID") ? Placement.requireInt(env, "SLURM_STEP_ID", IN_A_STEP) : 0;
        return DERIVED_PORTS + (int) ((job * 64 + step) % DERIVED_PORT_COUNT);
    }

    /**
     * The first host of a Slurm host list: {@code c[07-09,12],d1} gives {@code c07}, {@code rack[1-2]-n[3-4]}
     * gives {@code rack1-n3} (the first of each bracket, its zero padding kept).
     */
    static String firstHost(String hostList) {
        StringBuilder host = new StringBuilder();
        boolean inBracket = false;
        boolean taking = false;
        for (char c : hostList.trim().toCharArray()) {
            if (inBracket) {
                if (c == ']') {
                    inBracket = false;
                } else if (c == '-' || c == ',') {
                    taking = false;
                } else if (taking) {
                    host.append(c);
                }
            } else if (c == '[') {
                inBracket = true;
                taking = true;
            } else if (c == ',') {
                break;
            } else {
                host.append(c);
            }
        }
        if (host.length() == 0 || inBracket) {
            throw new IllegalArgumentException("'" + hostList + "' is not a Slurm host list");
        }
        return host.toString();
    }
}
