"""Tools for people solving by hand: step-by-step explanations, long-hand layouts, worksheets."""
