"""Reading BFCL's `inference_log` of a result line (nothing of BFCL's code): shared by the
tools that replay a stored run's calls as BFCL decoded them."""


def logged_step_texts(line):
    """Per turn of `line["result"]`, per step, the call texts BFCL's handler logged for it
    (`model_response_decoded` of the step's `handler_log` record; [] when there is none)."""
    logs = [x for x in line.get("inference_log", []) if isinstance(x, dict)]
    turns = []
    for ti, turn in enumerate(line["result"]):
        steps = []
        for si, _ in enumerate(turn):
            handler = next((m for m in logs[ti].get(f"step_{si}", []) if m.get("role") == "handler_log"), {}) if ti < len(logs) else {}
            steps.append(list(handler.get("model_response_decoded") or []))
        turns.append(steps)
    return turns
