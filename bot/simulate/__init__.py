"""Tools that measure and tune the computer players by playing many games; not used by the bot.

``python -m bot.simulate`` plays levels against each other and prints their strength
(`bot.simulate.run`); ``python -m bot.simulate.calibrate`` refits the normal level's card values
(`bot/ai/values.py`) to self-play.
"""

from .run import main, mean_ci, percentile, play_game, report

__all__ = ["main", "mean_ci", "percentile", "play_game", "report"]
