public enum RxTestingPlaceholder {}
