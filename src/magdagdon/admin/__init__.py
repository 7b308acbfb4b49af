"""The operator's commands: ``magdagdon admin`` (moderation) and ``magdagdon db backup``."""
