"""The Hub Space of this metric: evaluate's Gradio widget around the module script next to this file.

As in evaluate's own metric Spaces, with one difference: the script is loaded from this folder (by its file name: a
Space's folder is not named like the metric), so the Space runs exactly the script it publishes.
`launch_gradio_widget` needs Gradio 3 (the card pins `sdk_version`).
"""

from pathlib import Path

import evaluate
from evaluate.utils import launch_gradio_widget

module = evaluate.load(str(Path(__file__).resolve().with_name("mvr.py")))
launch_gradio_widget(module)
