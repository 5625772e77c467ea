/**
 * BFCL's TwitterAPI (`posting_api.py`): login, tweets keyed by int id, comments, retweets and a following
 * list. More in this folder's README.md.
 */
import type { ApiInstance, MethodSpec, ParamSpec } from "../types.js";
import type { PyValue } from "../../python/value.js";
import { PyDict } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { pyTruthy, pyTypeName } from "../../python/kinds.js";
import { pyEquals } from "../../python/compare.js";
import { pyAdd } from "../../python/arithmetic.js";
import { pyInt } from "../../python/convert.js";
import { pyContains, pyIter, pyLen } from "../../python/iterables.js";
import { pyRepr } from "../../python/repr.js";
import type { BfclVersion } from "../../bfcl/data.js";
import type { PythonProcess } from "./process.js";
import { dict, errorDict, fmt, noAttribute, strSelf } from "./class-support.js";

const STATE_KEYS = ["username", "password", "authenticated", "tweets", "comments", "retweets", "following_list", "tweet_counter"] as const;
type StateKey = (typeof STATE_KEYS)[number];

function defaultState(): Record<StateKey, PyValue> {
  return {
    username: "john",
    password: "john123",
    authenticated: false,
    tweets: new PyDict(),
    comments: new PyDict(),
    retweets: new PyDict(),
    following_list: ["alice", "bob"],
    tweet_counter: 0n,
  };
}

/** Where the process keeps `post_tweet`'s default lists (what a seed for them is keyed by). */
export const POST_TWEET_DEFAULTS = "posting_api.TwitterAPI.post_tweet";

/** The process-wide default lists of `post_tweet`'s `tags=[]` and `mentions=[]`. */
interface PostTweetDefaults {
  readonly tags: PyValue[];
  readonly mentions: PyValue[];
}

/** `d[key]` with Python's KeyError / TypeError. */
function getItem(container: PyValue, key: PyValue): PyValue {
  if (container instanceof PyDict) {
    const v = container.get(key);
    if (v === undefined) throw new PyException("KeyError", pyRepr(key));
    return v;
  }
  if (Array.isArray(container)) throw new PyException("TypeError", `list indices must be integers or slices, not ${pyTypeName(key)}`);
  if (typeof container === "string") throw new PyException("TypeError", `string indices must be integers, not '${pyTypeName(key)}'`);
  throw new PyException("TypeError", `'${pyTypeName(container)}' object is not subscriptable`);
}

function asDict(v: PyValue, method: string): PyDict {
  if (!(v instanceof PyDict)) throw noAttribute(v, method);
  return v;
}

function asList(v: PyValue, method: string): PyValue[] {
  if (!Array.isArray(v)) throw noAttribute(v, method);
  return v;
}

class TwitterApi implements ApiInstance {
  readonly className = "TwitterAPI" as const;
  readonly methods: ReadonlyMap<string, MethodSpec>;
  private loaded = false;
  private s: Record<StateKey, PyValue> = defaultState();

  /**
   * v3 final's class: `comment` without a login raises its error dict (a TypeError:
   * exceptions must derive from BaseException) and `list_all_following` answers the bare list.
   */
  private readonly v3: boolean;

  constructor(defaults: PostTweetDefaults, classSource: BfclVersion = "v4") {
    this.v3 = classSource === "v3";
    const m = new Map<string, MethodSpec>();
    const def = (name: string, params: ParamSpec[], invoke: (args: PyValue[]) => PyValue) => m.set(name, { params, invoke });
    def("authenticate_twitter", [{ name: "username" }, { name: "password" }], ([u, p]) => this.authenticate(u, p));
    def("posting_get_login_status", [], () => dict({ login_status: pyTruthy(this.s.authenticated) }));
    def(
      "post_tweet",
      [{ name: "content" }, { name: "tags", default: () => defaults.tags }, { name: "mentions", default: () => defaults.mentions }],
      ([c, t, mn]) => this.postTweet(c, t, mn),
    );
    def("retweet", [{ name: "tweet_id" }], ([id]) => this.retweet(id));
    def("comment", [{ name: "tweet_id" }, { name: "comment_content" }], ([id, c]) => this.comment(id, c));
    def("mention", [{ name: "tweet_id" }, { name: "mentioned_usernames" }], ([id, names]) => this.mention(id, names));
    def("follow_user", [{ name: "username_to_follow" }], ([u]) => this.follow(u));
    def("list_all_following", [], () => this.listFollowing());
    def("unfollow_user", [{ name: "username_to_unfollow" }], ([u]) => this.unfollow(u));
    def("get_tweet", [{ name: "tweet_id" }], ([id]) => this.getTweet(id));
    def("get_user_tweets", [{ name: "username" }], ([u]) => this.userTweets(u));
    def("search_tweets", [{ name: "keyword" }], ([k]) => this.search(k));
    def("get_tweet_comments", [{ name: "tweet_id" }], ([id]) => this.tweetComments(id));
    def("get_user_stats", [{ name: "username" }], ([u]) => this.userStats(u));
    this.methods = m;
  }

  loadScenario(config: PyDict): void {
    // the executor passes a fresh deep copy (`_load_scenario(deepcopy(config))`), so it is kept as is
    const scenario = config;
    const defaults = defaultState();
    const s = {} as Record<StateKey, PyValue>;
    for (const key of STATE_KEYS) s[key] = scenario.has(key) ? scenario.get(key)! : defaults[key];
    s.tweets = new PyDict(
      asDict(s.tweets, "items")
        .entries()
        .map(([k, v]) => [pyInt(k), v] as const),
    );
    this.s = s;
    this.loaded = true;
  }

  publicState(): [string, PyValue][] {
    if (!this.loaded) return [];
    return STATE_KEYS.map((k) => [k, this.s[k]]);
  }

  private requireAuth(action: string): PyValue | undefined {
    if (!pyTruthy(this.s.authenticated)) return errorDict(`User not authenticated. Please authenticate before ${action}.`);
    return undefined;
  }

  private authenticate(username: PyValue, password: PyValue): PyValue {
    if (pyEquals(username, this.s.username) && pyEquals(password, this.s.password)) {
      this.s.authenticated = true;
      return dict({ authentication_status: true });
    }
    return dict({ authentication_status: false });
  }

  private postTweet(content: PyValue, tags: PyValue, mentions: PyValue): PyValue {
    const denied = this.requireAuth("posting");
    if (denied) return denied;
    const tweet = dict({ id: this.s.tweet_counter, username: this.s.username, content, tags, mentions });
    asDict(this.s.tweets, "__setitem__").set(this.s.tweet_counter, tweet);
    this.s.tweet_counter = pyAdd(this.s.tweet_counter, 1n);
    return tweet;
  }

  private notFound(id: PyValue): PyValue {
    return errorDict(`Tweet with ID ${fmt(id)} not found.`);
  }

  private retweet(id: PyValue): PyValue {
    const denied = this.requireAuth("retweeting");
    if (denied) return denied;
    if (!pyContains(this.s.tweets, id)) return this.notFound(id);
    const retweets = asDict(this.s.retweets, "__setitem__");
    if (!pyContains(retweets, this.s.username)) retweets.set(this.s.username, []);
    const mine = retweets.get(this.s.username)!;
    if (pyContains(mine, id)) return dict({ retweet_status: "Already retweeted" });
    asList(mine, "append").push(id);
    return dict({ retweet_status: "Successfully retweeted" });
  }

  private comment(id: PyValue, content: PyValue): PyValue {
    const denied = this.requireAuth("commenting");
    if (denied && this.v3) throw new PyException("TypeError", "exceptions must derive from BaseException");
    if (denied) return denied;
    if (!pyContains(this.s.tweets, id)) return this.notFound(id);
    const comments = asDict(this.s.comments, "__setitem__");
    if (!pyContains(comments, id)) comments.set(id, []);
    asList(comments.get(id)!, "append").push(dict({ username: this.s.username, content }));
    return dict({ comment_status: "Comment added successfully" });
  }

  private mention(id: PyValue, names: PyValue): PyValue {
    if (!pyContains(this.s.tweets, id)) return this.notFound(id);
    const tweet = getItem(this.s.tweets, id);
    const list = asList(getItem(tweet, "mentions"), "extend");
    list.push(...pyIter(names));
    return dict({ mention_status: "Users mentioned successfully" });
  }

  private follow(user: PyValue): PyValue {
    const denied = this.requireAuth("following");
    if (denied) return denied;
    if (pyContains(this.s.following_list, user)) return dict({ follow_status: false });
    asList(this.s.following_list, "append").push(user);
    return dict({ follow_status: true });
  }

  private listFollowing(): PyValue {
    const denied = this.requireAuth("listing following");
    if (denied) return denied;
    return this.v3 ? this.s.following_list : dict({ following_list: this.s.following_list });
  }

  private unfollow(user: PyValue): PyValue {
    const denied = this.requireAuth("unfollowing");
    if (denied) return denied;
    if (!pyContains(this.s.following_list, user)) return dict({ unfollow_status: false });
    const list = asList(this.s.following_list, "remove");
    list.splice(
      list.findIndex((x) => x === user || pyEquals(x, user)),
      1,
    );
    return dict({ unfollow_status: true });
  }

  private getTweet(id: PyValue): PyValue {
    if (!pyContains(this.s.tweets, id)) return this.notFound(id);
    return getItem(this.s.tweets, id);
  }

  private tweetValues(): PyValue[] {
    return asDict(this.s.tweets, "values").values();
  }

  private userTweets(username: PyValue): PyValue {
    return this.tweetValues().filter((t) => pyEquals(getItem(t, "username"), username));
  }

  private search(keyword: PyValue): PyValue {
    const out: PyValue[] = [];
    for (const tweet of this.tweetValues()) {
      const k = strSelf(keyword, "lower").toLowerCase();
      if (strSelf(getItem(tweet, "content"), "lower").toLowerCase().includes(k)) {
        out.push(tweet);
        continue;
      }
      const k2 = strSelf(keyword, "lower").toLowerCase();
      const tags = pyIter(getItem(tweet, "tags")).map((tag) => strSelf(tag, "lower").toLowerCase());
      if (tags.includes(k2)) out.push(tweet);
    }
    return out;
  }

  private tweetComments(id: PyValue): PyValue {
    if (!pyContains(this.s.tweets, id)) return this.notFound(id);
    return asDict(this.s.comments, "get").get(id) ?? [];
  }

  private userStats(username: PyValue): PyValue {
    const tweetCount = this.tweetValues().filter((t) => pyEquals(getItem(t, "username"), username)).length;
    const followingCount = pyEquals(username, this.s.username) ? pyLen(this.s.following_list) : 0;
    const retweets = asDict(this.s.retweets, "get");
    const retweetCount = pyLen(retweets.get(username) ?? []);
    return dict({ tweet_count: BigInt(tweetCount), following_count: BigInt(followingCount), retweet_count: BigInt(retweetCount) });
  }
}

/** A TwitterAPI whose `post_tweet` defaults are the ones of `process` (shared like Python's). */
export function newTwitterApi(process: PythonProcess): ApiInstance {
  const defaults = process.mutableDefaults(POST_TWEET_DEFAULTS, ["tags", "mentions"]);
  return new TwitterApi(defaults, process.classSource);
}
