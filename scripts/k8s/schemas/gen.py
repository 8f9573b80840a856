#!/usr/bin/env python3
"""gen.py: write the JSON schemas that kubeconform checks the manifests
against (scripts/k8s/*.yaml), from Kubernetes' own OpenAPI v2 document.

    go mod download -json k8s.io/kubernetes@v1.37.2   # its "Dir"
    scripts/k8s/schemas/gen.py DIR/api/openapi-spec/swagger.json scripts/k8s/schemas

Each schema stands alone (every $ref inlined) and is strict: an object
that lists its properties accepts no other (so a misspelt field fails),
int-or-string fields take either, apiVersion and kind must be the
type's own, and the descriptions are left out. Files are named as kubeconform's schema-location template
'{{.ResourceKind}}{{.KindSuffix}}.json' expects.
"""
import json
import sys

# The kinds the manifests use: definition name, file name.
KINDS = {
    "io.k8s.api.batch.v1.Job": "job-batch-v1.json",
    "io.k8s.api.core.v1.PersistentVolumeClaim": "persistentvolumeclaim-v1.json",
}


def expand(node, defs, seen):
    """node with every $ref replaced by its definition, strict."""
    if isinstance(node, list):
        return [expand(x, defs, seen) for x in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        if name in seen:  # a recursive type: accept it as it comes
            return {}
        return expand(defs[name], defs, seen | {name})
    if node.get("format") == "int-or-string":
        return {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    out = {k: expand(v, defs, seen) for k, v in node.items() if not k.startswith("x-kubernetes-") and k != "description"}
    if out.get("type") == "object" and "properties" in out:
        out.setdefault("additionalProperties", False)
    # Fields that may be null in a manifest.
    if "type" in out and isinstance(out["type"], str) and out["type"] != "null":
        out["type"] = [out["type"], "null"]
    return out


def main(swagger, outdir):
    defs = json.load(open(swagger))["definitions"]
    for name, fname in KINDS.items():
        schema = expand(defs[name], defs, {name})
        gvk = defs[name]["x-kubernetes-group-version-kind"][0]
        api = gvk["version"] if not gvk["group"] else gvk["group"] + "/" + gvk["version"]
        schema["properties"]["apiVersion"] = {"type": "string", "enum": [api]}
        schema["properties"]["kind"] = {"type": "string", "enum": [gvk["kind"]]}
        schema["type"] = "object"
        schema["required"] = sorted(set(schema.get("required", [])) | {"apiVersion", "kind"})
        schema["$schema"] = "http://json-schema.org/schema#"
        with open(f"{outdir}/{fname}", "w") as f:
            json.dump(schema, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
