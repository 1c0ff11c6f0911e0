# Drops optionalDependencies that point at platform packages absent from the lock
# (this machine's registry mirror does not carry them, so npm cannot lock them and npm ci then refuses).
import json, sys
p = sys.argv[1]
d = json.load(open(p))
pk = d["packages"]
names = set(k.split("node_modules/")[-1] for k in pk if k)
dropped = []
for k, v in pk.items():
    od = v.get("optionalDependencies")
    if not od: continue
    for dep in list(od):
        if dep not in names:
            del od[dep]; dropped.append(dep)
    if not od: del v["optionalDependencies"]
json.dump(d, open(p, "w"), indent=2); open(p, "a").write("\n")
print("dropped", len(dropped))
