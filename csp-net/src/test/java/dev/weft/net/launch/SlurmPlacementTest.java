package dev.weft.net.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NodeAddress;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Slurm task's place from the environment srun gives it. */
class SlurmPlacementTest {
    private static Map<String, String> task(int procId) {
        Map<String, String> env = new HashMap<>(Map.of("SLURM_PROCID", Integer.toString(procId),
                "SLURM_STEP_NUM_TASKS", "4", "SLURM_STEP_NODELIST", "c[07-09,12]", "SLURMD_NODENAME", "c08",
                "SLURM_JOB_ID", "1234", "SLURM_STEP_ID", "2"));
        return env;
    }

    @Test
    void aTaskFindsItsIndexAndNode0OnTheStepsFirstNode() {
        int derived = 17000 + (1234 * 64 + 2) % 15000;
        assertEquals(new Placement(2, 4, new NodeAddress("c07", derived), "c08", "slurm task 2 on c08"),
                SlurmPlacement.of(task(2)));
        Map<String, String> env = task(0);
        env.put("SLURMD_NODENAME", "c07");
        env.put("SLURM_STEP_RESV_PORTS", "12000-12003");
        assertEquals(new Placement(0, 4, new NodeAddress("c07", 12000), "c07", "slurm task 0 on c07"),
                SlurmPlacement.of(env), "the step's reserved port first");
        env.put("WEFT_PORT", "9000");
        env.put("WEFT_NODE0", "head");
        assertEquals(new NodeAddress("head", 9000), SlurmPlacement.of(env).node0(), "what the user says first");
    }

    @Test
    void theFirstHostOfAHostList() {
        assertEquals("c07", SlurmPlacement.firstHost("c[07-09,12],d1"));
        assertEquals("node7", SlurmPlacement.firstHost("node7,node8"));
        assertEquals("rack1-n3", SlurmPlacement.firstHost("rack[1-2]-n[3-4]"));
        assertEquals("localhost", SlurmPlacement.firstHost("localhost"));
        assertThrows(IllegalArgumentException.class, () -> SlurmPlacement.firstHost("c[1-2"));
    }

    @Test
    void outsideAStepItSaysToUseSrun() {
        Map<String, String> env = task(1);
        env.remove("SLURM_PROCID");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmPlacement.of(env)).getMessage()
                .equals("SLURM_PROCID is not set: run this in a Slurm job step (srun)"));
    }
}
