import Hummingbird

/// Placeholder: the offline Flickr arrives with its own issue.
public enum FakeFlickr {}
