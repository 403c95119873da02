import Simulator

/// The JSON Schema of scenario files, printed by `pushsim schema` and shipped as
/// `schema/pushsim-scenario.schema.json` (a test keeps the two byte-identical). It
/// describes every field `ScenarioDecoder` reads, for editors' completion and help;
/// the decoder stays the judge (cross-field checks such as labels named by `expect`).
/// This string is the source: after editing it, write the file again with
/// `swift run pushsim schema > schema/pushsim-scenario.schema.json`.
package enum ScenarioSchema {
    /// The schema, draft 2020-12.
    package static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "title": "PushSim scenario",
  "description": "A PushSim scenario file (README, \"Scenario files\"). Every effect a file does not name is absent; unknown fields are errors.",
  "type": "object",
  "properties": {
    "name": {
      "type": "string",
      "pattern": "^[A-Za-z0-9_.-]{1,100}$",
      "not": {
        "enum": [
          ".",
          ".."
        ]
      },
      "description": "letters, digits, '-', '_', '.'; names the default report folder"
    },
    "description": {
      "type": "string",
      "description": "assumptions and sources of the rates"
    },
    "seed": {
      "type": "integer",
      "minimum": 0,
      "maximum": 9223372036854775807,
      "description": "seed of every random stream (default 0; --seed overrides)"
    },
    "start": {
      "$ref": "#/$defs/date",
      "description": "first day, local midnight; the run must end by 9999-12-31"
    },
    "duration": {
      "$ref": "#/$defs/positiveDuration",
      "description": "length of the run"
    },
    "devices": {
      "type": "integer",
      "minimum": 1,
      "maximum": 100000000,
      "description": "users, one device each"
    },
    "mail": {
      "$ref": "#/$defs/rhythm",
      "description": "mail arrivals for one device + app: perDay (mean mails a weekday), diurnal, weekendFactor"
    },
    "connectivity": {
      "type": "object",
      "description": "The device's connection to APNs (absent: always online).",
      "properties": {
        "online": {
          "$ref": "#/$defs/distribution",
          "description": "length of online periods (mean > 0; with offline)"
        },
        "offline": {
          "$ref": "#/$defs/distribution",
          "description": "length of offline periods (mean > 0; with online)"
        },
        "offlineWindows": {
          "type": "array",
          "description": "daily windows laid over the alternation; offline wins",
          "items": {
            "type": "object",
            "properties": {
              "start": {
                "type": "string",
                "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$",
                "description": "local start time, HH:MM"
              },
              "duration": {
                "$ref": "#/$defs/distribution",
                "description": "how long the device stays offline once it starts"
              },
              "probability": {
                "type": "number",
                "minimum": 0,
                "maximum": 1,
                "description": "chance a device takes the window on a given day"
              },
              "days": {
                "enum": [
                  "all",
                  "weekdays",
                  "weekends"
                ],
                "description": "days it applies to (default all)"
              }
            },
            "required": [
              "start",
              "duration",
              "probability"
            ],
            "additionalProperties": false
          }
        }
      },
      "additionalProperties": false,
      "dependentRequired": {
        "online": [
          "offline"
        ],
        "offline": [
          "online"
        ]
      }
    },
    "latency": {
      "type": "object",
      "description": "Network latencies.",
      "properties": {
        "providerToAPNs": {
          "$ref": "#/$defs/distribution",
          "description": "per request, provider → APNs (default 0)"
        },
        "apnsToDevice": {
          "$ref": "#/$defs/distribution",
          "description": "per delivery, APNs → device (default 0)"
        },
        "rerequestRoundTrip": {
          "$ref": "#/$defs/distribution",
          "description": "extension → provider → extension (default 0)"
        }
      },
      "additionalProperties": false
    },
    "provider": {
      "type": "object",
      "description": "The provider's failures, retries, outages and subscriptions.",
      "properties": {
        "payloadTTL": {
          "$ref": "#/$defs/positiveDuration",
          "description": "how long numbered payloads stay re-requestable (default: the whole run)"
        },
        "expiredPositions": {
          "enum": [
            "resendRest",
            "error"
          ],
          "description": "answer to a re-request when some positions are past payloadTTL (default resendRest)"
        },
        "retries": {
          "type": "integer",
          "minimum": 0,
          "maximum": 20,
          "description": "extra attempts for a request with no answer, a 429 or a 503 (default 0)"
        },
        "backoff": {
          "$ref": "#/$defs/positiveDuration",
          "description": "wait before the first retry, doubling for each next one (default 1s)"
        },
        "network": {
          "type": "object",
          "description": "Provider → APNs requests lost on the way (lost_provider_network).",
          "properties": {
            "failureProbability": {
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "description": "chance one request gets no answer"
            },
            "timeout": {
              "$ref": "#/$defs/positiveDuration",
              "description": "how long the provider waits for an answer (default 10s)"
            }
          },
          "required": [
            "failureProbability"
          ],
          "additionalProperties": false
        },
        "outages": {
          "type": "object",
          "description": "Provider outages (lost_provider_outage); {} is allowed.",
          "properties": {
            "scheduled": {
              "type": "array",
              "description": "windows at fixed times",
              "items": {
                "type": "object",
                "properties": {
                  "start": {
                    "type": "string",
                    "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$",
                    "description": "local start, YYYY-MM-DDTHH:MM, inside the run"
                  },
                  "duration": {
                    "$ref": "#/$defs/positiveDuration",
                    "description": "length of the window"
                  }
                },
                "required": [
                  "start",
                  "duration"
                ],
                "additionalProperties": false
              }
            },
            "random": {
              "type": "object",
              "description": "Random outages, drawn once per run from the seed.",
              "properties": {
                "between": {
                  "$ref": "#/$defs/distribution",
                  "description": "end of one outage to the start of the next (mean > 0)"
                },
                "duration": {
                  "$ref": "#/$defs/distribution",
                  "description": "length of one outage (mean > 0)"
                }
              },
              "required": [
                "between",
                "duration"
              ],
              "additionalProperties": false
            }
          },
          "additionalProperties": false
        },
        "subscriptions": {
          "type": "object",
          "description": "Folder subscriptions the user changes in the app (lost_stale_subscription).",
          "properties": {
            "changesPerDay": {
              "type": "number",
              "minimum": 0,
              "maximum": 1000000,
              "description": "mean subscription changes a day per device app"
            },
            "mailShare": {
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "description": "share of the user's mail that goes to the folder subscribed last"
            },
            "syncOn": {
              "enum": [
                "reconnect",
                "launch"
              ],
              "description": "when an offline change syncs (default reconnect; launch needs device.launches)"
            }
          },
          "required": [
            "changesPerDay",
            "mailShare"
          ],
          "additionalProperties": false
        }
      },
      "additionalProperties": false
    },
    "apns": {
      "type": "object",
      "description": "APNs's storage, throttle and deferral.",
      "properties": {
        "expiration": {
          "$ref": "#/$defs/duration",
          "description": "apns-expiration = send time + this; 0 means one attempt, no storage (default: header absent)"
        },
        "storage": {
          "enum": [
            "latest",
            "nondeterministic"
          ],
          "description": "which notification the one-per-app offline storage keeps (default latest)"
        },
        "closeTogether": {
          "$ref": "#/$defs/positiveDuration",
          "description": "only with storage nondeterministic: pushes this close are kept with even odds (default 1s)"
        },
        "rateLimit": {
          "type": "object",
          "description": "Per-token throttle: past it APNs answers 429 (lost_rate_limited).",
          "properties": {
            "burst": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000000,
              "description": "requests one token may receive back to back"
            },
            "window": {
              "$ref": "#/$defs/positiveDuration",
              "description": "time in which a full burst is refilled"
            }
          },
          "required": [
            "burst",
            "window"
          ],
          "additionalProperties": false
        },
        "priority5Deferral": {
          "$ref": "#/$defs/distribution",
          "description": "how long APNs holds priority 5 pushes for a connected device"
        }
      },
      "additionalProperties": false
    },
    "push": {
      "type": "object",
      "description": "The push payload.",
      "properties": {
        "app": {
          "type": "string",
          "minLength": 1,
          "description": "bundle id (default ru.yandex.mail)"
        },
        "alertBodyBytes": {
          "type": "integer",
          "minimum": 0,
          "maximum": 1000000,
          "description": "alert body length (default 120); payloads over 4096 bytes get 413"
        }
      },
      "additionalProperties": false
    },
    "device": {
      "type": "object",
      "description": "The device's settings, limits, identity, apps, launches and taps.",
      "properties": {
        "extensionTimeLimit": {
          "$ref": "#/$defs/positiveDuration",
          "description": "the extension's completion deadline (default 30s)"
        },
        "notificationsDisabled": {
          "type": "number",
          "minimum": 0,
          "maximum": 1,
          "description": "share of device apps with notifications disabled (lost_disabled)"
        },
        "alertsNotAllowed": {
          "type": "number",
          "minimum": 0,
          "maximum": 1,
          "description": "share whose user does not allow alerts (lost_alerts_not_allowed)"
        },
        "displayOff": {
          "type": "number",
          "minimum": 0,
          "maximum": 1,
          "description": "share with the app's notification display switched off (lost_display_off)"
        },
        "legacyIOS": {
          "type": "number",
          "minimum": 0,
          "maximum": 1,
          "description": "share of devices on iOS < 10: no extension runs"
        },
        "extensionMemory": {
          "type": "object",
          "description": "The extension's memory against its device's limit.",
          "properties": {
            "footprintMB": {
              "$ref": "#/$defs/sizeDistribution",
              "description": "footprint of one invocation, MB"
            },
            "olderIOS": {
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "description": "share of devices on older iOS, with the lower limit"
            },
            "olderLimitMB": {
              "type": "number",
              "exclusiveMinimum": 0,
              "maximum": 1048576,
              "description": "memory limit on older iOS, MB (default 12)"
            },
            "newerLimitMB": {
              "type": "number",
              "exclusiveMinimum": 0,
              "maximum": 1048576,
              "description": "memory limit on newer iOS, MB (default 24)"
            }
          },
          "required": [
            "footprintMB"
          ],
          "additionalProperties": false
        },
        "tokenRotation": {
          "type": "object",
          "description": "APNs token rotation (lost_unregistered).",
          "properties": {
            "perDay": {
              "type": "number",
              "minimum": 0,
              "maximum": 1000000,
              "description": "mean rotations a day per device app"
            },
            "withPrompt": {
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "description": "share of rotations that are reinstalls, showing the permission prompt again"
            }
          },
          "required": [
            "perDay"
          ],
          "additionalProperties": false
        },
        "deviceIDChangesPerDay": {
          "type": "number",
          "minimum": 0,
          "maximum": 1000000,
          "description": "mean device id changes a day (default 0)"
        },
        "accounts": {
          "$ref": "#/$defs/count",
          "description": "accounts in the app, each its own mail stream into the one queue (default 1)"
        },
        "apps": {
          "$ref": "#/$defs/count",
          "description": "mail apps on the device, each with its own token, APNs slot and queue (default 1)"
        },
        "launches": {
          "$ref": "#/$defs/rhythm",
          "description": "app launches: upload the extension's log, register, sync subscriptions"
        },
        "taps": {
          "type": "object",
          "description": "Taps on shown notifications; each tap launches the app.",
          "properties": {
            "probability": {
              "type": "number",
              "minimum": 0,
              "maximum": 1,
              "description": "chance a shown notification is tapped"
            },
            "delay": {
              "$ref": "#/$defs/distribution",
              "description": "time from showing to the tap (default 0)"
            }
          },
          "required": [
            "probability"
          ],
          "additionalProperties": false
        }
      },
      "additionalProperties": false
    },
    "strategies": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "description": "One column of the comparison.",
        "properties": {
          "name": {
            "$ref": "#/$defs/strategyName"
          },
          "label": {
            "type": "string",
            "pattern": "^[^,\"\\n\\r]+$",
            "description": "the report's name for it (default: the name); no comma, quote or line break; labels are unique"
          },
          "repeatMaxCount": {
            "type": "integer",
            "minimum": 0,
            "maximum": 1000000,
            "description": "queue strategies: a gap larger than this is summarised instead of re-requested (default: no limit)"
          },
          "collapseID": {
            "type": "boolean",
            "description": "queue strategies: send apns-collapse-id so a re-sent push replaces its original (default true)"
          },
          "registration": {
            "enum": [
              "everyLaunch",
              "once"
            ],
            "description": "when the app registers for notifications: at every launch (default) or only when the permission prompt shows"
          },
          "priority": {
            "enum": [
              10,
              5
            ],
            "description": "apns-priority of mail pushes (default 10); 5 lets APNs defer them per apns.priority5Deferral"
          },
          "from": {
            "$ref": "#/$defs/date",
            "description": "queue strategies: the day the strategy reaches users as an app update (inside the run); starts a rollout"
          },
          "before": {
            "$ref": "#/$defs/strategyName",
            "description": "with from: the strategy each device runs until its update (default no-queue)"
          },
          "adoption": {
            "$ref": "#/$defs/distribution",
            "description": "with from: delay from 'from' until a device app runs the new version (default 0)"
          }
        },
        "required": [
          "name"
        ],
        "additionalProperties": false,
        "dependentRequired": {
          "before": [
            "from"
          ],
          "adoption": [
            "from"
          ]
        }
      },
      "description": "the columns of the comparison, in report order"
    },
    "expect": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "description": "A bound pushsim check holds the run to; needs atLeast, atMost or both.",
        "properties": {
          "metric": {
            "enum": [
              "deliverability",
              "informed_rate",
              "measured_deliverability",
              "pushes_per_message",
              "lost_apns_coalesced_share",
              "lost_apns_expired_share",
              "lost_apns_rejected_share",
              "lost_unregistered_share",
              "lost_stale_subscription_share",
              "lost_provider_network_share",
              "lost_provider_outage_share",
              "lost_rate_limited_share",
              "lost_disabled_share",
              "lost_alerts_not_allowed_share",
              "lost_display_off_share"
            ],
            "description": "the rate held to the bounds"
          },
          "strategy": {
            "type": "string",
            "description": "the label of the strategy whose rate is checked"
          },
          "minus": {
            "type": "string",
            "description": "when given, the bound is on strategy's rate minus this strategy's (paired difference)"
          },
          "atLeast": {
            "type": "number",
            "description": "the interval's lower end must be at least this"
          },
          "atMost": {
            "type": "number",
            "description": "the interval's upper end must be at most this"
          },
          "confidence": {
            "type": "number",
            "exclusiveMinimum": 0,
            "exclusiveMaximum": 1,
            "description": "the interval's confidence (default 0.95)"
          }
        },
        "required": [
          "metric",
          "strategy"
        ],
        "additionalProperties": false,
        "anyOf": [
          {
            "required": [
              "atLeast"
            ]
          },
          {
            "required": [
              "atMost"
            ]
          }
        ]
      },
      "description": "bounds pushsim check holds the run to; run ignores them"
    }
  },
  "required": [
    "name",
    "start",
    "duration",
    "devices",
    "mail",
    "strategies"
  ],
  "additionalProperties": false,
  "$defs": {
    "duration": {
      "description": "A duration: a string with a unit, \"250ms\", \"30s\", \"15m\", \"3h\", \"2d\" (decimals allowed, e.g. \"1.5h\"), or a bare 0. Any other bare number is an error: 28 could mean days as well as seconds.",
      "anyOf": [
        {
          "type": "string",
          "pattern": "^([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ms|s|m|h|d)$"
        },
        {
          "const": 0
        }
      ]
    },
    "positiveDuration": {
      "description": "A duration greater than zero: a string with a unit, \"250ms\", \"30s\", \"15m\", \"3h\", \"2d\" (decimals allowed).",
      "type": "string",
      "pattern": "^(?=[0-9.]*[1-9])([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ms|s|m|h|d)$"
    },
    "date": {
      "description": "A day, YYYY-MM-DD.",
      "type": "string",
      "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
    },
    "probability": {
      "description": "A probability or share, 0 to 1.",
      "type": "number",
      "minimum": 0,
      "maximum": 1
    },
    "distribution": {
      "description": "A distribution of durations: an object with \"distribution\" (constant, exponential, uniform, lognormal) and its parameters, or a bare duration meaning constant.",
      "anyOf": [
        {
          "$ref": "#/$defs/duration"
        },
        {
          "type": "object",
          "properties": {
            "distribution": {
              "const": "constant"
            },
            "value": {
              "$ref": "#/$defs/duration",
              "description": "the value every draw takes"
            }
          },
          "required": [
            "distribution",
            "value"
          ],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "distribution": {
              "const": "exponential"
            },
            "mean": {
              "$ref": "#/$defs/positiveDuration",
              "description": "the mean (> 0)"
            }
          },
          "required": [
            "distribution",
            "mean"
          ],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "distribution": {
              "const": "uniform"
            },
            "min": {
              "$ref": "#/$defs/duration",
              "description": "the lowest value"
            },
            "max": {
              "$ref": "#/$defs/duration",
              "description": "the highest value (not below min)"
            }
          },
          "required": [
            "distribution",
            "min",
            "max"
          ],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "distribution": {
              "const": "lognormal"
            },
            "median": {
              "$ref": "#/$defs/positiveDuration",
              "description": "the median (> 0)"
            },
            "sigma": {
              "type": "number",
              "minimum": 0,
              "maximum": 5,
              "description": "σ of the underlying normal, 0 to 5"
            }
          },
          "required": [
            "distribution",
            "median",
            "sigma"
          ],
          "additionalProperties": false
        }
      ]
    },
    "megabytes": {
      "description": "A size in megabytes (a plain number, 0 to 1048576).",
      "type": "number",
      "minimum": 0,
      "maximum": 1048576
    },
    "sizeDistribution": {
      "description": "A distribution of sizes in megabytes: written like a time distribution with plain numbers of MB instead of durations (a bare number means constant).",
      "anyOf": [
        {
          "$ref": "#/$defs/megabytes"
        },
        {
          "type": "object",
          "properties": {
            "distribution": {
              "const": "constant"
            },
            "value": {
              "$ref": "#/$defs/megabytes"
            }
          },
          "required": [
            "distribution",
            "value"
          ],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "distribution": {
              "const": "exponential"
            },
            "mean": {
              "$ref": "#/$defs/megabytes"
            }
          },
          "required": [
            "distribution",
            "mean"
          ],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "distribution": {
              "const": "uniform"
            },
            "min": {
              "$ref": "#/$defs/megabytes"
            },
            "max": {
              "$ref": "#/$defs/megabytes"
            }
          },
          "required": [
            "distribution",
            "min",
            "max"
          ],
          "additionalProperties": false
        },
        {
          "type": "object",
          "properties": {
            "distribution": {
              "const": "lognormal"
            },
            "median": {
              "$ref": "#/$defs/megabytes"
            },
            "sigma": {
              "type": "number",
              "minimum": 0,
              "maximum": 5,
              "description": "σ of the underlying normal, 0 to 5"
            }
          },
          "required": [
            "distribution",
            "median",
            "sigma"
          ],
          "additionalProperties": false
        }
      ]
    },
    "count": {
      "description": "A count that differs between devices: an integer 1 to 20 (every device the same), or shares of devices by count, {\"1\": 0.7, \"2\": 0.3} (keys \"1\" to \"20\", shares summing to 1).",
      "anyOf": [
        {
          "type": "integer",
          "minimum": 1,
          "maximum": 20
        },
        {
          "type": "object",
          "propertyNames": {
            "pattern": "^([1-9]|1[0-9]|20)$"
          },
          "additionalProperties": {
            "$ref": "#/$defs/probability"
          },
          "minProperties": 1
        }
      ]
    },
    "rhythm": {
      "type": "object",
      "description": "A Poisson process with a daily rhythm.",
      "properties": {
        "perDay": {
          "type": "number",
          "minimum": 0,
          "maximum": 1000000,
          "description": "mean events a weekday (Poisson)"
        },
        "diurnal": {
          "type": "array",
          "items": {
            "type": "number",
            "minimum": 0
          },
          "minItems": 24,
          "maxItems": 24,
          "description": "24 relative hourly rates (local time), at least one positive; normalised to mean 1 (default flat)"
        },
        "weekendFactor": {
          "type": "number",
          "minimum": 0,
          "description": "rate multiplier on Saturdays and Sundays (default 1)"
        }
      },
      "required": [
        "perDay"
      ],
      "additionalProperties": false
    },
    "strategyName": {
      "description": "A strategy: no-queue (pushes shown as they come), queue (numbered pushes, gaps re-requested), queue-as-published (the talk's code as printed).",
      "enum": [
        "no-queue",
        "queue",
        "queue-as-published"
      ]
    }
  }
}

"""#
}
