"""Rendering: embeds and components built from plain game state."""
