public enum EventLoopPlaceholder {}
