"""B Nomic's governance (seed 004), pure: elections (rule 1823), polls (rule 15), ...

Each subpackage is standard-library only, like every package under
``bot.games``: the engine holds the state and the clock, these decide.
"""
