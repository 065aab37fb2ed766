class Match: pass
