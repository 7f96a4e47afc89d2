"""aws-lambda-powertools 3.37.0 idempotency on Redis as a chaoslua idempotency store (Python kit)."""
import sys
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "kits" / "python"))
from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig  # noqa: E402
from aws_lambda_powertools.utilities.idempotency.exceptions import IdempotencyItemAlreadyExistsError  # noqa: E402
from aws_lambda_powertools.utilities.idempotency.persistence.redis import RedisCachePersistenceLayer  # noqa: E402
from chaoslua_kit import Adapter, Refused, serve  # noqa: E402

TTL_S = 60  # expires_after_seconds: longer than any run, so no record expires on the library's clock


class Powertools(Adapter):
    name, version = "powertools-idempotency", version("aws-lambda-powertools")
    declares = {"idempotency": {
        # No owner, no renew; save_success() answers nothing; delete_record() is left out (README).
        "capabilities": {"register": "outcome", "complete": "void"},
        "keys": {"computed": True},  # key_prefix#md5(payload), and the orphan-takeover lock beside it
    }}

    def open(self, pattern, cluster, hello):
        self.r, self.layers, self.started = cluster, {}, set()

    def layer(self, key):
        if key not in self.layers:  # one layer per key (configure() takes key_prefix once): its key carries ours
            layer = RedisCachePersistenceLayer(client=self.r)
            layer.configure(IdempotencyConfig(event_key_jmespath="key", expires_after_seconds=TTL_S), key_prefix=key)
            self.layers.setdefault(key, layer)  # threads racing here keep one
        return self.layers[key]

    def call(self, op, key, args):
        data, layer = {"key": key}, self.layer(key)
        if op == "complete":
            if args["ttlMs"] != TTL_S * 1000:  # run with --set ttl=60000 --set ttl2=60000
                raise Refused(f"expires_after_seconds is {TTL_S} s per config, not {args['ttlMs']} ms per call")
            # The library's handler saves a result only for a request whose in-progress record it saved.
            if (key, args["owner"]) not in self.started:
                raise Refused("this request never saved an in-progress record: no handler would save its result")
            layer.save_success(data, {"status": args["status"], "body": args["body"]})
            return None
        try:  # remaining_time_in_millis, the Lambda's time left, is the in-progress record's lease
            layer.save_inprogress(data, remaining_time_in_millis=args["leaseMs"])
            self.started.add((key, args["owner"]))
            return ["fresh"]
        except IdempotencyItemAlreadyExistsError:  # then read it; one gone by then is indeterminate
            record = layer.get_record(data)
            result = record.response_json_as_dict() if record.status == "COMPLETED" else None
            return ["completed", result["status"], result["body"]] if result else ["in-progress"]

    def keys(self, key):
        name = self.layer(key)._get_hashed_idempotency_key({"key": key})
        return [name, f"{name}:lock"]


if __name__ == "__main__":
    sys.exit(serve(Powertools()))
