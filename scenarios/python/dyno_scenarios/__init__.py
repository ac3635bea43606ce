"""The shared work of the dyno route contract for the Python SUTs: the Python side of @dyno/scenarios.

The Python SUTs cannot import JavaScript, so these modules mirror, line for line, the JavaScript every Node
SUT calls; verification checks each value against the JavaScript contract, so a drift fails `dyno verify`.

- `dyno_scenarios.work`: what each route does (scenarios/src/work/*.js).
- `dyno_scenarios.data`: the world table and the data-source variables (scenarios/src/data/*.js); the
  clients themselves (sync or async) are the SUT's, since they depend on its framework.
- `dyno_scenarios.sut`: PORT, HOST, WORKERS and the ready line (scenarios/src/sut/*.js).
"""
