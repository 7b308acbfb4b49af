"""The daily challenge's answers: today's challenges and the streak (``services.daily``), the
day's table, a daily game's share text (``services.share``)."""

from magdagdon.api.schemas.derive import model_of
from magdagdon.services import daily, share

StreakOut = model_of(daily.Streak, "StreakOut")
DailyOut = model_of(daily.Overview, "DailyOut")
TableRowOut = model_of(daily.TableEntry, "TableRowOut")
ShareOut = model_of(share.Share, "ShareOut")
