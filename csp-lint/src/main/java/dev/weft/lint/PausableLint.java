package dev.weft.lint;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.SynchronizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import dev.weft.weaver.Rule;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.tools.Diagnostic;

/**
 * The weaver's rules, checked by javac as it compiles, with the weaver's own messages, so that an IDE that
 * builds with javac (IntelliJ IDEA, NetBeans, VS Code's Java tools in javac mode) shows them on the line:
 * <ul>
 *   <li>a pausable call inside {@code synchronized} in a pausable method, or in a synchronized pausable
 *       method;</li>
 *   <li>a pausable call in a constructor, an instance initializer or a static initializer;</li>
 *   <li>an override that disagrees with the method it overrides about {@code @Pausable}.</li>
 * </ul>
 * Each message says how to fix it. A lambda or anonymous class of a plain interface may call pausable code,
 * wherever it is written: it runs in thread mode (handed to a plain thread, it blocks that thread; run on a
 * carrier, the call fails fast and says how to fix it), as the weaver has it.
 * Put {@code dev.weft:csp-lint} on the annotation processor path (it finds itself through the service
 * loader). It needs javac's tree API; under another compiler (Eclipse's) it stays silent, and the weaver still
 * reports the same errors at build time.
 */
public final class PausableLint extends AbstractProcessor {
    static final String PAUSABLE = "dev.weft.csp.Pausable";

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public synchronized void init(ProcessingEnvironment env) {
        super.init(env);
        JavacTask task;
        try {
            task = JavacTask.instance(env);
        } catch (IllegalArgumentException | NoClassDefFoundError notJavac) {
            return; // another compiler: the weaver reports the same errors
        }
        Trees trees = Trees.instance(env);
        task.addTaskListener(new TaskListener() {
            @Override
            public void finished(TaskEvent e) {
                if (e.getKind() == TaskEvent.Kind.ANALYZE && e.getCompilationUnit() != null) {
                    new Checker(trees, env, e.getCompilationUnit()).scan(e.getCompilationUnit(), null);
                }
            }
        });
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        return false; // checks run once types are attributed (see init); no annotation is claimed
    }

    /** Walks one attributed compilation unit and reports what the weaver would refuse. */
    private static final class Checker extends TreePathScanner<Void, Void> {
        private final Trees trees;
        private final ProcessingEnvironment env;
        private final CompilationUnitTree unit;

        Checker(Trees trees, ProcessingEnvironment env, CompilationUnitTree unit) {
            this.trees = trees;
            this.env = env;
            this.unit = unit;
        }

        @Override
        public Void visitMethod(MethodTree tree, Void unused) {
            Element e = trees.getElement(getCurrentPath());
            if (e instanceof ExecutableElement && e.getKind() == ElementKind.METHOD) {
                checkOverrides((ExecutableElement) e, tree);
            }
            return super.visitMethod(tree, unused);
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree tree, Void unused) {
            Element callee = trees.getElement(getCurrentPath());
            if (callee instanceof ExecutableElement && isPausable(callee)) {
                checkCall((ExecutableElement) callee, tree);
            }
            return super.visitMethodInvocation(tree, unused);
        }

        /** Finds what the call is in (a method, a lambda, an initializer) and applies the rules. */
        private void checkCall(ExecutableElement callee, Tree call) {
            String calleeName = Names.method(callee);
            boolean synchronizedBlock = false;
            for (TreePath p = getCurrentPath().getParentPath(); p != null; p = p.getParentPath()) {
                Tree t = p.getLeaf();
                if (t instanceof SynchronizedTree) {
                    synchronizedBlock = true;
                } else if (t instanceof LambdaExpressionTree) {
                    return; // a pausable lambda's body may pause; a plain one's calls in thread mode
                } else if (t instanceof MethodTree) {
                    checkCallInMethod(p, calleeName, synchronizedBlock, call);
                    return;
                } else if (t instanceof BlockTree && p.getParentPath().getLeaf() instanceof ClassTree) {
                    initializerCall(p, ((BlockTree) t).isStatic(), calleeName, call);
                    return;
                } else if (t instanceof VariableTree && p.getParentPath().getLeaf() instanceof ClassTree) {
                    initializerCall(p, ((VariableTree) t).getModifiers().getFlags().contains(Modifier.STATIC),
                            calleeName, call);
                    return;
                }
            }
        }

        private void checkCallInMethod(TreePath methodPath, String calleeName, boolean synchronizedBlock, Tree call) {
            MethodTree m = (MethodTree) methodPath.getLeaf();
            Element me = trees.getElement(methodPath);
            if (!(me instanceof ExecutableElement)) {
                return;
            }
            String owner = Names.type((TypeElement) me.getEnclosingElement());
            if (me.getKind() == ElementKind.CONSTRUCTOR) {
                error(Rule.PAUSE_IN_CONSTRUCTOR.message(owner, calleeName), call);
                return;
            }
            if (isPausable(me)) {
                String method = Names.method((ExecutableElement) me);
                if (synchronizedBlock) {
                    error(Rule.PAUSE_UNDER_MONITOR.message(method, calleeName), call);
                } else if (m.getModifiers().getFlags().contains(Modifier.SYNCHRONIZED)) {
                    error(Rule.PAUSE_IN_SYNCHRONIZED_METHOD.message(method, calleeName), call);
                }
                return;
            }
            // A plain method (also of an anonymous or local class in a pausable method): a thread-mode call.
        }

        private void initializerCall(TreePath initializer, boolean isStatic, String calleeName, Tree call) {
            Element c = trees.getElement(initializer.getParentPath());
            String owner = c instanceof TypeElement ? Names.type((TypeElement) c) : "?";
            Rule rule = isStatic ? Rule.PAUSE_IN_STATIC_INITIALIZER : Rule.PAUSE_IN_CONSTRUCTOR;
            error(rule.message(owner, calleeName), call);
        }

        /** An override must agree with what it overrides: both pausable, or neither. */
        private void checkOverrides(ExecutableElement m, MethodTree tree) {
            TypeElement owner = (TypeElement) m.getEnclosingElement();
            boolean mine = isPausable(m);
            for (ExecutableElement other : Overrides.of(m, owner, env)) {
                if (isPausable(other) != mine) {
                    Rule rule = mine ? Rule.PAUSABLE_OVERRIDES_PLAIN : Rule.PLAIN_OVERRIDES_PAUSABLE;
                    error(rule.message(Names.method(m), Names.method(other)), tree);
                    return;
                }
            }
        }

        private void error(String message, Tree at) {
            trees.printMessage(Diagnostic.Kind.ERROR, message, at, unit);
        }
    }

    /** Whether {@code e} carries {@code @Pausable}. */
    static boolean isPausable(Element e) {
        return e.getAnnotationMirrors().stream().anyMatch(a ->
                ((TypeElement) a.getAnnotationType().asElement()).getQualifiedName().contentEquals(PAUSABLE));
    }
}
