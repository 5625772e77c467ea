"""Read single functions out of a BFCL source file at run time (nothing copied): the
function definitions named are compiled without their annotations (which would import
BFCL's types) into the namespace given. Shared by the tools that build test vectors."""
import ast


def extract_functions(path, names, namespace):
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            node.returns = None
            for a in node.args.args:
                a.annotation = None
            exec(compile(ast.Module(body=[node], type_ignores=[]), str(path), "exec"), namespace)
    missing = [n for n in names if n not in namespace]
    if missing:
        raise SystemExit(f"{path}: not found: {missing}")
