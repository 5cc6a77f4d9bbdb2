package dev.weft.weaver.classfiles;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Generates, with ASM, the kind of class file that javac 1.4 wrote for {@code try/finally}: the finally
 * blocks are subroutines reached by JSR and left by RET. The class is a {@code CSProcess}:
 *
 * <pre>
 * public class jsr.Finally implements CSProcess {
 *     public ChannelInput in; public int[] runs; public int n; public int result;
 *     public Finally(ChannelInput in, int[] runs, int n) { ... }
 *     &#64;Pausable public void run() { result = compute(in, runs, n); }
 *
 *     &#64;Pausable public static int compute(ChannelInput in, int[] runs, int n) {
 *         int sum = 0;
 *         for (int i = 0; i &lt; n; i++) {
 *             try {
 *                 try {
 *                     int v = ((Integer) in.read()).intValue();
 *                     if (v &lt; 0) throw new IllegalStateException();
 *                     sum += v;
 *                     if (v == 99) return sum;                 // JSR to the finally, then return
 *                 } finally {                                  // subroutine FIN, reached by 3 JSRs
 *                     runs[0]++;
 *                     { runs[1]++; sum += 100000 * read(); }   // nested subroutine FIN2, JSR from FIN
 *                     sum += 1000 * read();
 *                 }
 *             } catch (IllegalStateException e) {
 *                 sum += 1000000;
 *             }
 *         }
 *         return sum;
 *     }
 * }
 * </pre>
 */
final class SubroutineClass implements Opcodes {
    static final String NAME = "jsr/Finally";
    private static final String INPUT = "dev/weft/csp/ChannelInput";
    private static final String PAUSABLE = "Ldev/weft/csp/Pausable;";
    private static final String COMPUTE_DESC = "(L" + INPUT + ";[II)I";

    private SubroutineClass() {
    }

    /** The class file, of class-file version {@code version} (older than 50, so JSR and RET are legal). */
    static byte[] generate(int version) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(version, ACC_PUBLIC | ACC_SUPER, NAME, null, "java/lang/Object", new String[] {"dev/weft/csp/CSProcess"});
        cw.visitField(ACC_PUBLIC, "in", "L" + INPUT + ";", null, null).visitEnd();
        cw.visitField(ACC_PUBLIC, "runs", "[I", null, null).visitEnd();
        cw.visitField(ACC_PUBLIC, "n", "I", null, null).visitEnd();
        cw.visitField(ACC_PUBLIC, "result", "I", null, null).visitEnd();
        constructor(cw);
        run(cw);
        compute(cw);
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void constructor(ClassWriter cw) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "<init>", "(L" + INPUT + ";[II)V", null, null);
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitVarInsn(ALOAD, 1);
        mv.visitFieldInsn(PUTFIELD, NAME, "in", "L" + INPUT + ";");
        mv.visitVarInsn(ALOAD, 0);
        mv.visitVarInsn(ALOAD, 2);
        mv.visitFieldInsn(PUTFIELD, NAME, "runs", "[I");
        mv.visitVarInsn(ALOAD, 0);
        mv.visitVarInsn(ILOAD, 3);
        mv.visitFieldInsn(PUTFIELD, NAME, "n", "I");
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private static void run(ClassWriter cw) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "run", "()V", null, null);
        mv.visitAnnotation(PAUSABLE, true).visitEnd();
        mv.visitCode();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, NAME, "in", "L" + INPUT + ";");
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, NAME, "runs", "[I");
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, NAME, "n", "I");
        mv.visitMethodInsn(INVOKESTATIC, NAME, "compute", COMPUTE_DESC, false);
        mv.visitFieldInsn(PUTFIELD, NAME, "result", "I");
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    // local variables of compute
    private static final int IN = 0, RUNS = 1, N = 2, SUM = 3, I = 4, V = 5, EXC = 6, RETURN_ADDRESS = 7, CAUGHT = 8,
            RETURN_ADDRESS2 = 9;

    private static void compute(ClassWriter cw) {
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_STATIC, "compute", COMPUTE_DESC, null, null);
        mv.visitAnnotation(PAUSABLE, true).visitEnd();
        Label loop = new Label(), end = new Label(), tryStart = new Label(), tryEnd = new Label();
        Label positive = new Label(), normal = new Label(), anyHandler = new Label(), fin = new Label();
        Label fin2 = new Label(), next = new Label(), iseHandler = new Label();
        mv.visitCode();
        mv.visitTryCatchBlock(tryStart, tryEnd, anyHandler, null);
        mv.visitTryCatchBlock(tryStart, fin, iseHandler, "java/lang/IllegalStateException");
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, SUM);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, I);

        mv.visitLabel(loop);
        mv.visitVarInsn(ILOAD, I);
        mv.visitVarInsn(ILOAD, N);
        mv.visitJumpInsn(IF_ICMPGE, end);

        mv.visitLabel(tryStart);
        readInt(mv);
        mv.visitVarInsn(ISTORE, V);
        mv.visitVarInsn(ILOAD, V);
        mv.visitJumpInsn(IFGE, positive);
        mv.visitTypeInsn(NEW, "java/lang/IllegalStateException");
        mv.visitInsn(DUP);
        mv.visitMethodInsn(INVOKESPECIAL, "java/lang/IllegalStateException", "<init>", "()V", false);
        mv.visitInsn(ATHROW);
        mv.visitLabel(positive);
        mv.visitVarInsn(ILOAD, SUM);
        mv.visitVarInsn(ILOAD, V);
        mv.visitInsn(IADD);
        mv.visitVarInsn(ISTORE, SUM);
        mv.visitVarInsn(ILOAD, V);
        mv.visitIntInsn(BIPUSH, 99);
        mv.visitJumpInsn(IF_ICMPNE, normal);
        mv.visitLabel(tryEnd);
        // return sum from inside the try: run the finally first
        mv.visitJumpInsn(JSR, fin);
        mv.visitVarInsn(ILOAD, SUM);
        mv.visitInsn(IRETURN);
        // the try block completed normally
        mv.visitLabel(normal);
        mv.visitJumpInsn(JSR, fin);
        mv.visitJumpInsn(GOTO, next);
        // the try block threw: run the finally, rethrow
        mv.visitLabel(anyHandler);
        mv.visitVarInsn(ASTORE, EXC);
        mv.visitJumpInsn(JSR, fin);
        mv.visitVarInsn(ALOAD, EXC);
        mv.visitInsn(ATHROW);

        // subroutine FIN
        mv.visitLabel(fin);
        mv.visitVarInsn(ASTORE, RETURN_ADDRESS);
        increment(mv, 0);
        mv.visitJumpInsn(JSR, fin2);
        mv.visitVarInsn(ILOAD, SUM);
        mv.visitIntInsn(SIPUSH, 1000);
        readInt(mv);
        mv.visitInsn(IMUL);
        mv.visitInsn(IADD);
        mv.visitVarInsn(ISTORE, SUM);
        mv.visitVarInsn(RET, RETURN_ADDRESS);

        // subroutine FIN2, reached from FIN only
        mv.visitLabel(fin2);
        mv.visitVarInsn(ASTORE, RETURN_ADDRESS2);
        increment(mv, 1);
        mv.visitVarInsn(ILOAD, SUM);
        mv.visitLdcInsn(100000);
        readInt(mv);
        mv.visitInsn(IMUL);
        mv.visitInsn(IADD);
        mv.visitVarInsn(ISTORE, SUM);
        mv.visitVarInsn(RET, RETURN_ADDRESS2);

        mv.visitLabel(next);
        mv.visitIincInsn(I, 1);
        mv.visitJumpInsn(GOTO, loop);

        mv.visitLabel(iseHandler);
        mv.visitVarInsn(ASTORE, CAUGHT);
        mv.visitVarInsn(ILOAD, SUM);
        mv.visitLdcInsn(1000000);
        mv.visitInsn(IADD);
        mv.visitVarInsn(ISTORE, SUM);
        mv.visitIincInsn(I, 1);
        mv.visitJumpInsn(GOTO, loop);

        mv.visitLabel(end);
        mv.visitVarInsn(ILOAD, SUM);
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** {@code ((Integer) in.read()).intValue()}: a pausable call. */
    private static void readInt(MethodVisitor mv) {
        mv.visitVarInsn(ALOAD, IN);
        mv.visitMethodInsn(INVOKEINTERFACE, INPUT, "read", "()Ljava/lang/Object;", true);
        mv.visitTypeInsn(CHECKCAST, "java/lang/Integer");
        mv.visitMethodInsn(INVOKEVIRTUAL, "java/lang/Integer", "intValue", "()I", false);
    }

    /** {@code runs[index]++}. */
    private static void increment(MethodVisitor mv, int index) {
        mv.visitVarInsn(ALOAD, RUNS);
        mv.visitInsn(index == 0 ? ICONST_0 : ICONST_1);
        mv.visitInsn(DUP2);
        mv.visitInsn(IALOAD);
        mv.visitInsn(ICONST_1);
        mv.visitInsn(IADD);
        mv.visitInsn(IASTORE);
    }
}
