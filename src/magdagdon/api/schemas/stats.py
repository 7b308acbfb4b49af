"""The Statistics sheet's answer (``GET /api/stats``): ``services.stats.Statistics``."""

from magdagdon.api.schemas.derive import model_of
from magdagdon.services import stats

StatsOut = model_of(stats.Statistics, "StatsOut")
