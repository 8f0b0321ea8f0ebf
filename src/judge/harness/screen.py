def screen(files, allow):
    return {"findings": [], "normalized": {}}
