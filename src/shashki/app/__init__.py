"""The Textual application (layer 4): it renders the game model and holds no rules."""
