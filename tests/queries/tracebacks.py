"""Error texts as the harness records them, with what changes from run to run as parameters."""

from __future__ import annotations


def nrt(status: str, graph: int, core: int, pid: int, phase: str = "prefill", site: str = "/opt/venv") -> str:
    """A runtime failure as torch-neuronx reports it, with its run-to-run details as given."""
    return (
        f"2026-Oct-26 09:15:35.0000 {pid}:{pid + 57} ERROR  NRT:nrt_execute  nd0 nc{core}: execution of "
        f"'model_forward_{graph}' failed: {status}\n"
        "Traceback (most recent call last):\n"
        f'  File "{site}/lib/python3.11/site-packages/torch_neuronx/runtime/executor.py", line {200 + graph}, '
        "in execute\n"
        "    raise NeuronRuntimeError(status, self.graph_name, core)\n"
        f"torch_neuronx.runtime.NeuronRuntimeError: {status} while executing 'model_forward_{graph}' "
        f"on nd{core // 4} nc{core} ({phase})\n"
    )


def eoom(need: float, cores: int, module: str, log_dir: str = "/var/tmp/neuron-compile-cache") -> str:
    return (
        "torch._dynamo.exc.BackendCompilerFailed: backend='neuron' raised:\n"
        f"CompilationError: neuronx-cc 2.28.7631.0 failed with exit code 70 compiling graph 'model_forward_1'\n"
        f"  log: {log_dir}/neuronxcc-2.28.7631.0+82129205/MODULE_{module}/log-neuron-cc.txt\n"
        f"ERROR {cores * 1000 + 7} [neuronx-cc]: [NCC_EOOM001] Out of memory: the graph needs an estimated "
        f"{need} GB of HBM on each of {cores} logical cores, but only 24.00 GB are available.\n"
        "  Shard the model over more cores, or reduce the static cache length.\n"
    )


def python_error(message: str, line: int, path: str = "/home/ubuntu/harness/work/run.py") -> str:
    return f'Traceback (most recent call last):\n  File "{path}", line {line}, in <module>\n    main()\n{message}\n'


# ---- masking: the same failure with other run-to-run details is one cause ----------------------------
